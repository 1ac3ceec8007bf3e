import { describe, expect, it, vi } from 'vitest';
import {
  PROVIDER_CONSENT_HOSTS,
  confirmWithMessageBox,
  decideExternalLink,
  describeLinkForLog,
  externalLinkAllowHosts,
  externalLinkQuestion,
  homepageHost,
  openExternalWithPolicy,
} from './external-link-policy.ts';

const allowHosts = externalLinkAllowHosts('https://avail.example.org/help');

describe('decideExternalLink', () => {
  it('opens the providers’ consent pages and the project’s own site at once (https only)', () => {
    for (const url of [
      'https://accounts.google.com/o/oauth2/v2/auth?client_id=x&state=s',
      'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=x',
      'https://login.live.com/oauth20_authorize.srf',
      'https://appleid.apple.com/account/manage',
      'https://ACCOUNTS.google.com/',
      'https://avail.example.org/docs/desktop',
    ]) expect(decideExternalLink(url, { allowHosts }), url).toBe('open');
  });

  it('asks about every other web address, http included', () => {
    for (const url of [
      'http://accounts.google.com/', // an allow-listed host, but not https
      'https://accounts.google.com.evil.example/',
      'https://evil.example/accounts.google.com',
      'https://accounts.google.com:8443/', // another port is another service
      'https://example.org/help',
      'http://localhost:3000/api/oauth/google/callback',
      'http://example.org/',
    ]) expect(decideExternalLink(url, { allowHosts }), url).toBe('ask');
  });

  it('refuses other schemes, garbage and addresses with credentials', () => {
    for (const url of [
      'file:///etc/passwd',
      'smb://host/share',
      'ms-settings:',
      'javascript:alert(1)',
      'about:blank',
      'data:text/html,x',
      'app://avail/app/dashboard',
      'mailto:a@b.c', // only through the permission handler, never this path
      'not a url',
      '',
      'https://user:pass@accounts.google.com/',
      'https://accounts.google.com@evil.example/',
    ]) expect(decideExternalLink(url, { allowHosts }), url).toBe('refuse');
    expect(decideExternalLink(42 as unknown as string, { allowHosts })).toBe('refuse');
  });

  it('the allow-list: the four provider hosts plus an https homepage’s host, nothing else', () => {
    expect(PROVIDER_CONSENT_HOSTS).toEqual(['accounts.google.com', 'login.microsoftonline.com', 'login.live.com', 'appleid.apple.com']);
    expect(externalLinkAllowHosts('https://Avail.Example.org/x')).toEqual([...PROVIDER_CONSENT_HOSTS, 'avail.example.org']);
    expect(externalLinkAllowHosts(undefined)).toEqual([...PROVIDER_CONSENT_HOSTS]);
    expect(homepageHost('http://avail.example.org')).toBeNull();
    expect(homepageHost('not a url')).toBeNull();
    expect(decideExternalLink('https://example.org/', { allowHosts: externalLinkAllowHosts(undefined) })).toBe('ask');
  });

  it('log descriptions never carry the path or query', () => {
    expect(describeLinkForLog('https://accounts.google.com/o/oauth2/v2/auth?code=secret&state=s')).toBe('https://accounts.google.com');
    expect(describeLinkForLog('file:///home/ana/secret.txt')).toBe('file:');
    expect(describeLinkForLog('https://u:p@x.example/?t=1')).toBe('https://x.example');
    expect(describeLinkForLog('::')).toBe('an unparsable address');
  });
});

describe('openExternalWithPolicy', () => {
  function deps(answer: boolean) {
    return { shell: { openExternal: vi.fn(async (_url: string) => undefined) }, confirm: vi.fn(async (_url: string) => answer), allowHosts, log: vi.fn() };
  }

  it('an allow-listed consent page opens without a question', async () => {
    const d = deps(false);
    expect(await openExternalWithPolicy('https://login.microsoftonline.com/common/oauth2/v2.0/authorize?state=s', d)).toBe('opened');
    expect(d.confirm).not.toHaveBeenCalled();
    expect(d.shell.openExternal).toHaveBeenCalledWith('https://login.microsoftonline.com/common/oauth2/v2.0/authorize?state=s');
  });

  it('another address opens only after the owner chose Open', async () => {
    const yes = deps(true);
    expect(await openExternalWithPolicy('https://example.org/page?x=1', yes)).toBe('opened');
    expect(yes.confirm).toHaveBeenCalledWith('https://example.org/page?x=1');
    expect(yes.shell.openExternal).toHaveBeenCalledWith('https://example.org/page?x=1');

    const no = deps(false);
    expect(await openExternalWithPolicy('http://example.org/', no)).toBe('cancelled');
    expect(no.confirm).toHaveBeenCalledOnce();
    expect(no.shell.openExternal).not.toHaveBeenCalled();
  });

  it('other schemes are refused without a question and logged without the address', async () => {
    const d = deps(true);
    expect(await openExternalWithPolicy('file:///home/ana/.ssh/id_rsa', d)).toBe('refused');
    expect(d.confirm).not.toHaveBeenCalled();
    expect(d.shell.openExternal).not.toHaveBeenCalled();
    expect(d.log).toHaveBeenCalledWith('external link refused: file:');
    expect(JSON.stringify(d.log.mock.calls)).not.toContain('id_rsa');
  });

  it('a failing shell is logged by host only and reported, never thrown', async () => {
    const d = deps(true);
    d.shell.openExternal.mockRejectedValue(new Error('no browser'));
    expect(await openExternalWithPolicy('https://accounts.google.com/auth?code=secret', d)).toBe('failed');
    expect(d.log).toHaveBeenCalledWith('could not open https://accounts.google.com in the default browser');
    expect(JSON.stringify(d.log.mock.calls)).not.toContain('secret');
  });
});

describe('the question', () => {
  it('shows the full address with Open / Cancel, Cancel being the default and the Escape answer', async () => {
    expect(externalLinkQuestion('https://example.org/a?b=c')).toMatchObject({
      message: 'Open this address in your browser?',
      detail: 'https://example.org/a?b=c\n\nSite: example.org',
      buttons: ['Open', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    });
    const dialog = { showMessageBox: vi.fn(async () => ({ response: 1 })) };
    const confirm = confirmWithMessageBox(dialog);
    expect(await confirm('https://example.org/')).toBe(false);
    dialog.showMessageBox.mockResolvedValue({ response: 0 });
    expect(await confirm('https://example.org/')).toBe(true);
    expect(dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ detail: 'https://example.org/\n\nSite: example.org' }));
  });

  it('a look-alike host (Cyrillic "а" in аpple.com) is shown in punycode, its host on a line of its own', async () => {
    const lookAlike = 'https://\u0430pple.com/account?x=1';
    const { detail } = externalLinkQuestion(lookAlike);
    expect(detail).toBe('https://xn--pple-43d.com/account?x=1\n\nSite: xn--pple-43d.com');
    expect(detail).not.toContain('\u0430');
    const dialog = { showMessageBox: vi.fn(async () => ({ response: 1 })) };
    const shell = { openExternal: vi.fn() };
    expect(await openExternalWithPolicy(lookAlike, { shell, confirm: confirmWithMessageBox(dialog), allowHosts: ['apple.com'], log: vi.fn() })).toBe('cancelled');
    expect(dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ detail: expect.stringContaining('Site: xn--pple-43d.com') }));
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('the browser gets the address the question showed (punycode host, normalised), not the raw string', async () => {
    const raw = 'HTTPS://\u0430pple.COM/a b?x=1';
    let shown = '';
    const dialog = {
      showMessageBox: vi.fn(async (o: { detail: string }) => {
        shown = o.detail.split('\n')[0];
        return { response: 0 };
      }),
    };
    const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
    expect(await openExternalWithPolicy(raw, { shell, confirm: confirmWithMessageBox(dialog), allowHosts: ['apple.com'], log: vi.fn() })).toBe('opened');
    expect(shown).toBe('https://xn--pple-43d.com/a%20b?x=1');
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith(shown);
    const allowed = { shell: { openExternal: vi.fn(async (_url: string) => undefined) }, confirm: vi.fn(async () => false), allowHosts, log: vi.fn() };
    expect(await openExternalWithPolicy('https://Accounts.Google.com/o/oauth2/v2/auth?state=s', allowed)).toBe('opened');
    expect(allowed.shell.openExternal).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?state=s');
  });
});
