/**
 * The files of recorded games on the command line (`simulate --record FILE`, `replay FILE`):
 * written without following a symbolic link at the name (O_NOFOLLOW) and without blocking on a
 * FIFO, as `generate` writes; read only from a regular file of at most
 * {@link MAX_RECORDING_FILE_BYTES}, checked before a byte is read, as scenario files are read.
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

/** The largest recording file `replay` reads: 64 MiB (a 1,000-turn game of two players records about 3 MiB). */
export const MAX_RECORDING_FILE_BYTES = 64 * 1024 * 1024;

/** Refuses a path that exists as anything but a regular file (a symbolic link, a FIFO, a folder...). */
export async function checkRecordingPath(path: string, option: string): Promise<void> {
  const info = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (info !== null && !info.isFile()) throw new Error(`${option}: '${path}' exists and is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; nothing was written (a recording is never written through a symbolic link)`);
}

/** Writes `text` to `path` (created or replaced) unless the name is a symbolic link or anything but a regular file. */
export async function writeRecordingFile(path: string, text: string, option: string): Promise<void> {
  await checkRecordingPath(path, option);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await open(path, flags, 0o644);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${option}: '${path}' is not a regular file`);
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** Reads and parses a recording file: a regular file of JSON, of at most {@link MAX_RECORDING_FILE_BYTES}; throws an Error saying why not. */
export async function readRecordingFile(path: string): Promise<unknown> {
  let text: string;
  try {
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error('not a regular file');
      if (info.size > MAX_RECORDING_FILE_BYTES) throw new Error(`${info.size} bytes; a recording file has at most ${MAX_RECORDING_FILE_BYTES}`);
      // Read at most one byte past the size seen: a file that grew since is refused.
      const buffer = Buffer.alloc(info.size + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > info.size) throw new Error('the file grew while it was read');
      }
      text = buffer.toString('utf8', 0, length);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw new Error(`cannot read '${path}': ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`'${path}' is not JSON (${err instanceof Error ? err.message : String(err)}); a recording is the JSON of game.recording()`);
  }
}
