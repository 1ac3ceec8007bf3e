import { describe, expect, it } from 'vitest';
import { slugOfPublicPath } from './public-path.ts';

describe('slugOfPublicPath', () => {
  it('reads the slug of /name, /u/name and /embed/name, percent-decoded, with one trailing slash', () => {
    expect(slugOfPublicPath('/jane-doe')).toBe('jane-doe');
    expect(slugOfPublicPath('/bob/')).toBe('bob');
    expect(slugOfPublicPath('/u/Jane%20D/')).toBe('Jane D');
    expect(slugOfPublicPath('/u/Bob%20B')).toBe('Bob B');
    expect(slugOfPublicPath('/embed/Al%C3%AFce')).toBe('Alïce');
  });

  it('is null for other paths and for malformed escapes', () => {
    expect(slugOfPublicPath('/a/b')).toBeNull();
    expect(slugOfPublicPath('/')).toBeNull();
    expect(slugOfPublicPath('/u/')).toBe('u');
    expect(slugOfPublicPath('/%E0')).toBeNull();
  });
});
