/**
 * The server's pino logger. JSON lines by default (for log collectors), written asynchronously in
 * batches (not one write(2) per request); human-readable lines through pino-pretty when stdout is
 * a terminal (someone running `npm start` and reading along). LOG_FORMAT=json|pretty forces one.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/**
 * The format for this process: `forced` (LOG_FORMAT) when it is 'json' or 'pretty', else pretty on
 * a terminal and JSON otherwise (files, pipes, containers, CI).
 */
export function logFormatFor(stdoutIsTTY: boolean, forced?: string): LogFormat {
  if (forced === 'json' || forced === 'pretty') return forced;
  return stdoutIsTTY ? 'pretty' : 'json';
}

/** The logger at `level` in `format` (see logFormatFor). */
export function createLogger(level: string, format: LogFormat): Logger {
  if (format === 'pretty') {
    // Someone is reading along on a terminal: lines are formatted in this thread, as they come.
    return pino({ level }, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  }
  return pino({ level }, pino.destination({ dest: 1, sync: false }));
}
