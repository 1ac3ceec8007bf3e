/** Analytics placeholder (spec §2 Analytics). */
import { useState } from 'react';

export default function AnalyticsPage() {
  const [range, setRange] = useState('7');
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Analytics</h1>
          <p className="muted">How visitors use your availability link.</p>
        </div>
        <div className="toolbar">
          <button type="button" className="btn btn-secondary btn-sm" aria-label="Filter (coming soon)">
            Filter
          </button>
          <label className="sr-only" htmlFor="analytics-range">
            Range
          </label>
          <select id="analytics-range" value={range} onChange={(e) => setRange(e.target.value)}>
            <option value="7">Last 7 days</option>
            <option value="30">Last 30 days</option>
            <option value="90">Last 3 months</option>
          </select>
        </div>
      </div>
      <section className="card empty-state">
        <h2>No analytics data yet</h2>
        <p className="muted">Share your link — visits will show up here.</p>
      </section>
    </div>
  );
}
