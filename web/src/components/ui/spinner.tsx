export function Spinner({ size = 20, label }: { size?: number; label?: string }) {
  return <span className="spinner" style={{ width: size, height: size }} role={label ? 'status' : undefined} aria-label={label} />;
}

/** Full-screen 'Loading...' (spec §2 guard rule 1). */
export function FullScreenLoader() {
  return (
    <div className="fullscreen-loader" role="status" aria-live="polite">
      <Spinner size={36} />
      <p>Loading...</p>
    </div>
  );
}
