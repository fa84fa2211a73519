import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Body bytes of SDK reports being read and handled at once in this process, beyond which more are
 * turned away. Each body is parsed and checked in one piece, in turn: a burst of large ones would
 * keep every other request (health checks, flag answers, the admin API) waiting behind them.
 * Real SDK reports are a few kilobytes, so this is a hundred of them at once.
 */
const MAX_BYTES_UNDER_WAY = 512 * 1024;
/** A body sent without a length is taken as this large. */
const UNKNOWN_LENGTH = 256 * 1024;

let requestsUnderWay = 0;
let bytesUnderWay = 0;

/**
 * Whether an SDK report (which SDKs send again) should be turned away now, before its body is read,
 * because the reports under way already hold as many bytes as the process takes at once; one is
 * always let through. When it answers false, the request counts as under way until its answer is
 * sent or its connection closes. Per process: a property of its event loop, not of one server.
 */
export function turnAwayWhenPiledUp(request: IncomingMessage, response: ServerResponse): boolean {
  const length = request.headers['content-length'];
  const chunked = request.headers['transfer-encoding'] !== undefined;
  const bytes = length !== undefined ? Number(length) || 0 : chunked ? UNKNOWN_LENGTH : 0;
  if (requestsUnderWay > 0 && bytesUnderWay + bytes > MAX_BYTES_UNDER_WAY) return true;
  requestsUnderWay++;
  bytesUnderWay += bytes;
  response.once('close', () => {
    requestsUnderWay--;
    bytesUnderWay -= bytes;
  });
  return false;
}
