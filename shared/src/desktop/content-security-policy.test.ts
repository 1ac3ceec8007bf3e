import { describe, expect, it } from 'vitest';
import { desktopCsp } from './content-security-policy.ts';

/** Directive name → its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources] as [string, string[]];
    }),
  );
}

describe('desktopCsp', () => {
  it('locks scripts to the app and lets connections reach only the app and the server', () => {
    const d = directives(desktopCsp('https://avail.example.com'));
    expect([...d.keys()]).toEqual([
      'default-src',
      'script-src',
      'style-src',
      'img-src',
      'connect-src',
      'font-src',
      'object-src',
      'base-uri',
      'form-action',
      'frame-ancestors',
    ]);
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('img-src')).toEqual(["'self'", 'data:']);
    expect(d.get('connect-src')).toEqual(["'self'", 'https://avail.example.com']);
    expect(d.get('font-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it("allows inline styles only (radix Dialog's scroll lock inserts a <style>), never inline scripts", () => {
    const d = directives(desktopCsp('https://avail.example.com'));
    expect(d.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    for (const [name, sources] of d) {
      if (name !== 'style-src') expect(sources).not.toContain("'unsafe-inline'");
      expect(sources).not.toContain("'unsafe-eval'");
    }
  });

  it('writes the server as an origin (port kept, path dropped by normalisation)', () => {
    expect(directives(desktopCsp('http://localhost:3000')).get('connect-src')).toEqual(["'self'", 'http://localhost:3000']);
    expect(directives(desktopCsp('HTTPS://Avail.Example.com')).get('connect-src')).toEqual(["'self'", 'https://avail.example.com']);
  });

  it('refuses anything that could inject a directive', () => {
    expect(() => desktopCsp("https://a.example; script-src 'unsafe-inline'")).toThrow();
    expect(() => desktopCsp('*')).toThrow();
    expect(() => desktopCsp('ftp://a.example')).toThrow();
  });
});
