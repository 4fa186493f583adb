/**
 * What a process's IPC pipes hold, for the stuck-file watchdog's report: the
 * bytes read but not yet parsed into a message (Node's 'advanced' IPC framing
 * keeps them on the pipe handle) and the bytes waiting to be written. A
 * message stuck in either is a lost message; both empty means the other side
 * never sent. Node keeps these on symbols of the handle, so they are read by
 * their description and reported as unknown where a version differs.
 */

interface PipeLike {
  writeQueueSize?: number;
  [key: symbol]: unknown;
}

function symbolValue(handle: object, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(handle).find(
    (candidate) => candidate.description === description,
  );
  return symbol === undefined ? undefined : (handle as PipeLike)[symbol];
}

/** One line per IPC pipe among the process's active handles (only ref'd handles are listed). */
export function ipcPipeLines(): string[] {
  const lines: string[] = [];
  const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
  for (const handle of handles) {
    const buffered = symbolValue(handle, 'kMessageBuffer');
    if (!Array.isArray(buffered)) continue;
    const size = symbolValue(handle, 'kMessageBufferSize');
    const head = buffered[0] as Uint8Array | undefined;
    const headLength =
      head && head.length >= 4
        ? Buffer.from(head.buffer, head.byteOffset, 4).readUInt32BE(0) + 4
        : undefined;
    lines.push(
      `ipc pipe: ${String(size)} bytes read and not yet a message (${buffered.length} chunks` +
        `${head ? `, the first ${head.length} bytes` : ''}${headLength ? `, its message ${headLength} bytes` : ''}), ` +
        `${(handle as PipeLike).writeQueueSize ?? 'unknown'} bytes waiting to be written`,
    );
  }
  return lines;
}
