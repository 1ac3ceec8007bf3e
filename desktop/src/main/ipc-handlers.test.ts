import { describe, expect, it, vi } from 'vitest';
import type { DesktopCommand, DesktopNotification, ServerSetting, TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { normaliseServerOrigin } from '@avail/shared/desktop/desktop-bridge.ts';
import { IPC_CHANNELS } from '../ipc-channels.ts';
import type { ExternalLinkOutcome } from './external-link-policy.ts';
import { EXTERNAL_NOT_OPENED_MESSAGE, FOREIGN_SENDER_MESSAGE, SERVER_SETTING_WRITE_FAILED, registerIpcHandlers, type IpcSenderEvent } from './ipc-handlers.ts';
import { parseQueuedCommand, parseTrayState } from './ipc-payloads.ts';
import type { TokenStore } from './token-store.ts';
import type { ServerSettingStore } from './server-setting-store.ts';

const APP = { senderFrame: { url: 'app://avail/app/dashboard' } };
const FOREIGN: Array<[string, IpcSenderEvent]> = [
  ['a web page', { senderFrame: { url: 'https://accounts.google.com/signin' } }],
  ['the server', { senderFrame: { url: 'https://avail.example.com/api/oauth/google/callback' } }],
  ['about:blank', { senderFrame: { url: 'about:blank' } }],
  ['another app host', { senderFrame: { url: 'app://evil/' } }],
  ['a file', { senderFrame: { url: 'file:///tmp/x.html' } }],
  ['a destroyed frame', { senderFrame: null }],
];

function validState(extra: Record<string, unknown> = {}): TrayState & Record<string, unknown> {
  return {
    signedIn: true,
    connection: 'offline',
    pendingCount: 2,
    timezone: 'Europe/Brussels',
    windows: [{ start: 1_781_500_000_000, end: 1_781_503_600_000 }],
    link: 'https://avail.example.com/ana',
    freeTimesText: 'Mon 15 Jun 11:00–15:30',
    computedAt: 1_781_499_000_000,
    ...extra,
  } as TrayState & Record<string, unknown>;
}

function setup() {
  const invokes = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => unknown>();
  const sends = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => void>();
  const ipcMain = {
    handle: (channel: string, fn: (event: IpcSenderEvent, ...args: unknown[]) => unknown) => void invokes.set(channel, fn),
    on: (channel: string, fn: (event: IpcSenderEvent, ...args: unknown[]) => void) => void sends.set(channel, fn),
  };
  let token: string | null = 'stored-token';
  const tokenStore: TokenStore = {
    persistence: () => 'os',
    load: vi.fn(async () => token),
    save: vi.fn(async (t: string) => {
      token = t;
      return 'os' as const;
    }),
    clear: vi.fn(async () => {
      token = null;
    }),
  };
  let setting: ServerSetting = { origin: 'http://localhost:3000', editable: true, confirmed: false };
  const serverSettings: ServerSettingStore = {
    get: async () => setting,
    currentOrigin: () => setting.origin,
    setServerOrigin: async (url: string) => {
      const origin = normaliseServerOrigin(url);
      setting = { origin, editable: true, confirmed: true };
      return origin;
    },
  };
  const trayStates: TrayState[] = [];
  const notifications: Array<{ n: DesktopNotification; click: () => void }> = [];
  const commands: DesktopCommand[] = [];
  const deps = {
    ipcMain,
    tokenStore,
    serverSettings,
    setTrayState: (s: TrayState) => void trayStates.push(s),
    showNotification: (n: DesktopNotification, click: () => void) => void notifications.push({ n, click }),
    showWindow: vi.fn(),
    sendCommand: (c: DesktopCommand) => void commands.push(c),
    commandsReady: vi.fn(),
    commandsNotReady: vi.fn(),
    commandDone: vi.fn(),
    openExternal: vi.fn(async (_url: string): Promise<ExternalLinkOutcome> => 'opened'),
    onServerOriginChanged: vi.fn(),
    log: vi.fn(),
  };
  registerIpcHandlers(deps);
  const invoke = async (event: IpcSenderEvent, channel: string, ...args: unknown[]) => {
    const fn = invokes.get(channel);
    if (!fn) throw new Error(`no handler for ${channel}`);
    return fn(event, ...args);
  };
  const send = (event: IpcSenderEvent, channel: string, ...args: unknown[]) => {
    const fn = sends.get(channel);
    if (!fn) throw new Error(`no listener for ${channel}`);
    fn(event, ...args);
  };
  return { invokes, sends, invoke, send, tokenStore, trayStates, notifications, commands, deps };
}

describe('registerIpcHandlers', () => {
  it('registers every bridge channel (invoke and send)', () => {
    const { invokes, sends } = setup();
    expect([...invokes.keys()].sort()).toEqual(
      [IPC_CHANNELS.openExternal, IPC_CHANNELS.tokenPersistence, IPC_CHANNELS.loadToken, IPC_CHANNELS.saveToken, IPC_CHANNELS.clearToken, IPC_CHANNELS.serverSetting, IPC_CHANNELS.setServerOrigin].sort(),
    );
    expect([...sends.keys()].sort()).toEqual([IPC_CHANNELS.notify, IPC_CHANNELS.setTrayState, IPC_CHANNELS.commandsReady, IPC_CHANNELS.commandsNotReady, IPC_CHANNELS.commandDone].sort());
  });

  it('opens provider consent pages in the system browser, and nothing but https (or loopback http) pages', async () => {
    const { invoke, deps } = setup();
    await invoke(APP, IPC_CHANNELS.openExternal, 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x');
    expect(deps.openExternal).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/v2/auth?client_id=x');
    for (const bad of ['file:///etc/passwd', 'http://evil.example/', 'javascript:alert(1)', 'smb://host/share', 42]) {
      await expect(invoke(APP, IPC_CHANNELS.openExternal, bad)).rejects.toThrow(/Only https pages/);
    }
    expect(deps.openExternal).toHaveBeenCalledTimes(1);
    await expect(invoke({ senderFrame: { url: 'https://accounts.google.com/' } }, IPC_CHANNELS.openExternal, 'https://x.example/')).rejects.toThrow();
    expect(deps.openExternal).toHaveBeenCalledTimes(1);
  });

  it('openExternal goes through the policy: a cancelled question or a refused address rejects (the renderer shows its failure)', async () => {
    const { invoke, deps } = setup();
    for (const outcome of ['cancelled', 'refused', 'failed'] as const) {
      deps.openExternal.mockResolvedValueOnce(outcome);
      await expect(invoke(APP, IPC_CHANNELS.openExternal, 'https://example.org/')).rejects.toThrow(EXTERNAL_NOT_OPENED_MESSAGE[outcome]);
    }
    await expect(invoke(APP, IPC_CHANNELS.openExternal, 'https://example.org/')).resolves.toBeUndefined();
  });

  it('answers the app: token calls and server setting', async () => {
    const { invoke, tokenStore } = setup();
    expect(await invoke(APP, IPC_CHANNELS.tokenPersistence)).toBe('os');
    expect(await invoke(APP, IPC_CHANNELS.loadToken)).toBe('stored-token');
    expect(await invoke(APP, IPC_CHANNELS.saveToken, 'new-token')).toBe('os');
    expect(tokenStore.save).toHaveBeenCalledWith('new-token');
    await invoke(APP, IPC_CHANNELS.clearToken);
    expect(await invoke(APP, IPC_CHANNELS.loadToken)).toBeNull();
    expect(await invoke(APP, IPC_CHANNELS.serverSetting)).toEqual({ origin: 'http://localhost:3000', editable: true, confirmed: false });
  });

  it.each(FOREIGN)('refuses every invoke from %s, without touching the stores', async (_name, event) => {
    const { invoke, tokenStore } = setup();
    for (const channel of [IPC_CHANNELS.tokenPersistence, IPC_CHANNELS.loadToken, IPC_CHANNELS.clearToken, IPC_CHANNELS.serverSetting]) {
      await expect(invoke(event, channel)).rejects.toThrow(FOREIGN_SENDER_MESSAGE);
    }
    await expect(invoke(event, IPC_CHANNELS.saveToken, 'evil')).rejects.toThrow(FOREIGN_SENDER_MESSAGE);
    await expect(invoke(event, IPC_CHANNELS.setServerOrigin, 'https://evil.example')).rejects.toThrow(FOREIGN_SENDER_MESSAGE);
    expect(tokenStore.load).not.toHaveBeenCalled();
    expect(tokenStore.save).not.toHaveBeenCalled();
    expect(tokenStore.clear).not.toHaveBeenCalled();
  });

  it.each(FOREIGN)('ignores tray states and notifications from %s', (_name, event) => {
    const { send, trayStates, notifications } = setup();
    send(event, IPC_CHANNELS.setTrayState, validState());
    send(event, IPC_CHANNELS.notify, { title: 'x', body: 'y', route: '/app/dashboard' });
    expect(trayStates).toEqual([]);
    expect(notifications).toEqual([]);
  });

  it('saveToken refuses what is not a token string', async () => {
    const { invoke, tokenStore } = setup();
    for (const bad of [undefined, null, 42, '', 'has space', 'x'.repeat(9000), { token: 'x' }]) {
      await expect(invoke(APP, IPC_CHANNELS.saveToken, bad)).rejects.toThrow();
    }
    expect(tokenStore.save).not.toHaveBeenCalled();
  });

  it('setServerOrigin: the normalised origin, or the user-facing message as data; reload only on a change', async () => {
    const { invoke, deps } = setup();
    expect(await invoke(APP, IPC_CHANNELS.setServerOrigin, 'ftp://nope')).toEqual({
      ok: false,
      message: 'Enter the address of your Avail server, like https://avail.example.com',
    });
    expect(await invoke(APP, IPC_CHANNELS.setServerOrigin, 'http://localhost:3000/')).toEqual({ ok: true, origin: 'http://localhost:3000' });
    expect(deps.onServerOriginChanged).not.toHaveBeenCalled(); // confirming the default changes nothing
    expect(await invoke(APP, IPC_CHANNELS.setServerOrigin, 'avail.example.com')).toEqual({ ok: true, origin: 'https://avail.example.com' });
    expect(deps.onServerOriginChanged).toHaveBeenCalledWith('https://avail.example.com');
  });

  it('setServerOrigin: a changed server clears the stored token before answering, and main never reloads', async () => {
    const { invoke, deps, tokenStore } = setup();
    const order: string[] = [];
    let finishClear: () => void = () => undefined;
    (tokenStore.clear as ReturnType<typeof vi.fn>).mockImplementation(async () => {
      order.push('clear started');
      await new Promise<void>((r) => (finishClear = r));
      order.push('clear finished');
    });
    const reply = Promise.resolve(invoke(APP, IPC_CHANNELS.setServerOrigin, 'https://avail.example.com')).then((r) => {
      order.push('answered');
      return r;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['clear started']); // no answer while the token is still stored
    finishClear();
    expect(await reply).toEqual({ ok: true, origin: 'https://avail.example.com' });
    expect(order).toEqual(['clear started', 'clear finished', 'answered']);
    // Told after the clear; main.ts's wiring of it does not reload (main.test.ts checks that).
    expect(deps.onServerOriginChanged).toHaveBeenCalledExactlyOnceWith('https://avail.example.com');
  });

  it('setServerOrigin: confirming the same server keeps the token (first run, nothing to clear)', async () => {
    const { invoke, tokenStore } = setup();
    expect(await invoke(APP, IPC_CHANNELS.setServerOrigin, 'http://localhost:3000')).toEqual({ ok: true, origin: 'http://localhost:3000' });
    expect(tokenStore.clear).not.toHaveBeenCalled();
    expect(await invoke(APP, IPC_CHANNELS.loadToken)).toBe('stored-token');
  });

  it('setServerOrigin: a storage failure is reported in plain words, never as the fs error', async () => {
    const { invoke, deps } = setup();
    deps.serverSettings.setServerOrigin = async () => {
      throw Object.assign(new Error("EACCES: permission denied, open '/home/ana/.config/Avail/desktop-config.json'"), { code: 'EACCES' });
    };
    expect(await invoke(APP, IPC_CHANNELS.setServerOrigin, 'https://avail.example.com')).toEqual({ ok: false, message: SERVER_SETTING_WRITE_FAILED });
    expect(deps.onServerOriginChanged).not.toHaveBeenCalled();
    expect(deps.tokenStore.clear).not.toHaveBeenCalled(); // still on the old server: still signed in
    expect(deps.log).toHaveBeenCalledWith('ipc: could not store the server setting (EACCES)');
  });

  it('passes a valid tray state on as a clean copy (extra fields dropped)', () => {
    const { send, trayStates } = setup();
    send(APP, IPC_CHANNELS.setTrayState, validState({ injected: '<script>' }));
    expect(trayStates).toHaveLength(1);
    expect(trayStates[0]).toEqual(validState());
    expect(trayStates[0]).not.toHaveProperty('injected');
  });

  it.each([
    ['not an object', 'hello'],
    ['null', null],
    ['an array', []],
    ['signedIn not boolean', validState({ signedIn: 'yes' })],
    ['unknown connection', validState({ connection: 'great' })],
    ['negative pending count', validState({ pendingCount: -1 })],
    ['fractional pending count', validState({ pendingCount: 1.5 })],
    ['unknown zone', validState({ timezone: 'Mars/Olympus' })],
    ['zone not a string', validState({ timezone: 7 })],
    ['windows not an array', validState({ windows: 'soon' })],
    ['window end before start', validState({ windows: [{ start: 2_000_000, end: 1_000_000 }] })],
    ['window with NaN', validState({ windows: [{ start: Number.NaN, end: 1 }] })],
    ['window as a string', validState({ windows: ['x'] })],
    ['too many windows', validState({ windows: Array.from({ length: 2001 }, (_, i) => ({ start: i * 10 + 1, end: i * 10 + 5 })) })],
    ['link not http(s)', validState({ link: 'javascript:alert(1)' })],
    ['link with credentials', validState({ link: 'https://u:p@avail.example.com/ana' })],
    ['free times text not a string', validState({ freeTimesText: 12 })],
    ['free times text too long', validState({ freeTimesText: 'x'.repeat(20_001) })],
    ['computedAt missing', validState({ computedAt: undefined })],
  ])('ignores an invalid tray state: %s', (_name, payload) => {
    const { send, trayStates, deps } = setup();
    send(APP, IPC_CHANNELS.setTrayState, payload);
    expect(trayStates).toEqual([]);
    expect(deps.log).toHaveBeenCalledWith('ipc: ignored an invalid tray state');
  });

  it('accepts the edge cases a real state has: signed out, no link, no windows', () => {
    expect(parseTrayState(validState({ signedIn: false, link: null, freeTimesText: null, windows: [], pendingCount: 0, connection: 'unauthorized' }))).not.toBeNull();
  });

  it('tray proposals (issue 24): valid ones are copied, absent means none, a bad one refuses the state', () => {
    const p = { id: 'p-1', name: 'Vera', start: 1_781_500_000_000, end: 1_781_501_800_000 };
    expect(parseTrayState(validState({ proposals: [{ ...p, extra: 1 }] }))?.proposals).toEqual([p]);
    expect(parseTrayState(validState())?.proposals).toBeUndefined();
    expect(parseTrayState(validState({ proposals: [{ ...p, end: p.start }] }))).toBeNull();
    expect(parseTrayState(validState({ proposals: [{ ...p, id: '' }] }))).toBeNull();
    expect(parseTrayState(validState({ proposals: [{ ...p, name: 'a\nb' }] }))).toBeNull();
    expect(parseTrayState(validState({ proposals: Array.from({ length: 11 }, (_, i) => ({ ...p, id: `p-${i}` })) }))).toBeNull();
    expect(parseTrayState(validState({ proposals: 'p-1' }))).toBeNull();
  });

  it('"commands ready" from the app reaches the queue; from anything else it is ignored (issue 25)', () => {
    const { send, deps } = setup();
    send(FOREIGN[0][1], IPC_CHANNELS.commandsReady, '42');
    expect(deps.commandsReady).not.toHaveBeenCalled();
    send(APP, IPC_CHANNELS.commandsReady); // without the account: refused
    send(APP, IPC_CHANNELS.commandsReady, { id: 42 });
    expect(deps.commandsReady).not.toHaveBeenCalled();
    send(APP, IPC_CHANNELS.commandsReady, '42');
    expect(deps.commandsReady).toHaveBeenCalledExactlyOnceWith('42');
    send(FOREIGN[0][1], IPC_CHANNELS.commandsNotReady);
    expect(deps.commandsNotReady).not.toHaveBeenCalled();
    send(APP, IPC_CHANNELS.commandsNotReady);
    expect(deps.commandsNotReady).toHaveBeenCalledOnce();
  });

  it('"command done" from the app forgets a kept command; a foreign sender or a malformed id does nothing (issue 25)', () => {
    const { send, deps } = setup();
    send(FOREIGN[0][1], IPC_CHANNELS.commandDone, 'c-1');
    send(APP, IPC_CHANNELS.commandDone, '../../etc');
    send(APP, IPC_CHANNELS.commandDone, 'x'.repeat(65));
    send(APP, IPC_CHANNELS.commandDone);
    expect(deps.commandDone).not.toHaveBeenCalled();
    send(APP, IPC_CHANNELS.commandDone, '3f0c2a9e-7b1d-4e5f-9a8b-0c1d2e3f4a5b');
    expect(deps.commandDone).toHaveBeenCalledExactlyOnceWith('3f0c2a9e-7b1d-4e5f-9a8b-0c1d2e3f4a5b');
  });

  it('unverified (issue 25): kept only when true and signed out; not a boolean refuses the state', () => {
    expect(parseTrayState(validState({ signedIn: false, unverified: true }))?.unverified).toBe(true);
    expect(parseTrayState(validState({ unverified: true }))?.unverified).toBeUndefined();
    expect(parseTrayState(validState({ signedIn: false, unverified: 'yes' }))).toBeNull();
  });

  it('syncing (issue 25): true is kept, absent or false means a finished pull, anything else refuses the state', () => {
    expect(parseTrayState(validState({ syncing: true, windows: [] }))?.syncing).toBe(true);
    expect(parseTrayState(validState({ syncing: false }))).toEqual(validState());
    expect(parseTrayState(validState())).not.toHaveProperty('syncing');
    expect(parseTrayState(validState({ syncing: 'yes' }))).toBeNull();
  });

  it('queued commands read back from disk: the tray\'s busy blocks with their click instant and proposal decisions, nothing else', () => {
    const at = 1_781_500_000_000;
    expect(parseQueuedCommand({ type: 'busy', duration: { minutes: 30 }, at, extra: 1 })).toEqual({ type: 'busy', duration: { minutes: 30 }, at });
    expect(parseQueuedCommand({ type: 'busy', duration: { restOfToday: true }, at })).toEqual({ type: 'busy', duration: { restOfToday: true }, at });
    expect(parseQueuedCommand({ type: 'proposal', id: 'p-1', action: 'decline', queued: true })).toEqual({ type: 'proposal', id: 'p-1', action: 'decline' });
    for (const bad of [
      { type: 'busy', duration: { minutes: 45 }, at },
      { type: 'busy', duration: { minutes: 30 } },
      { type: 'busy', duration: { minutes: 30, restOfToday: true }, at },
      { type: 'proposal', id: '', action: 'confirm' },
      { type: 'proposal', id: 'p-1', action: 'cancel' },
      { type: 'sync-now' },
      { type: 'navigate', route: '/app' },
      'busy',
      null,
    ]) expect(parseQueuedCommand(bad), JSON.stringify(bad)).toBeNull();
  });

  it('notify shows a notification whose click opens the window at the route', () => {
    const { send, notifications, commands, deps } = setup();
    send(APP, IPC_CHANNELS.notify, { title: 'New proposal', body: 'Bo proposed Tue 10:00', route: '/app/dashboard#proposals' });
    expect(notifications.map((x) => x.n)).toEqual([{ title: 'New proposal', body: 'Bo proposed Tue 10:00', route: '/app/dashboard#proposals' }]);
    expect(commands).toEqual([]);
    notifications[0].click();
    expect(deps.showWindow).toHaveBeenCalledOnce();
    expect(commands).toEqual([{ type: 'navigate', route: '/app/dashboard#proposals' }]);
  });

  it.each([
    ['an absolute URL route', { title: 't', body: 'b', route: 'https://evil.example/' }],
    ['a protocol-relative route', { title: 't', body: 'b', route: '//evil.example/' }],
    ['a backslash route', { title: 't', body: 'b', route: '/\\evil.example' }],
    ['an empty title', { title: ' ', body: 'b', route: '/app' }],
    ['a missing body', { title: 't', route: '/app' }],
  ])('ignores a notification with %s', (_name, payload) => {
    const { send, notifications } = setup();
    send(APP, IPC_CHANNELS.notify, payload);
    expect(notifications).toEqual([]);
  });
});
