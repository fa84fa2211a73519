import { request } from 'node:http';

interface Cookie {
  value: string;
  path: string;
}

export interface Visit {
  status: number;
  url: URL;
  headers: Headers;
  text: string;
  /** The Set-Cookie headers of this answer. */
  setCookies: string[];
}

/**
 * A browser as far as sign-in needs one, over real HTTP: cookies kept per host (with their path
 * and Max-Age=0), redirects followed one by one like a top-level navigation, and the Sec-Fetch
 * headers a browser sends (`cross-site` when a redirect comes from another site).
 */
export class HttpBrowser {
  private readonly jar = new Map<string, Map<string, Cookie>>();

  private cookieHeader(url: URL): string | undefined {
    const cookies = this.jar.get(url.host);
    if (!cookies) return undefined;
    const sent = [...cookies]
      .filter(
        ([, c]) =>
          url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map(([name, c]) => `${name}=${c.value}`);
    return sent.length ? sent.join('; ') : undefined;
  }

  private keep(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const removed = attributes.some((a) => a.toLowerCase() === 'max-age=0');
      const cookies = this.jar.get(url.host) ?? new Map<string, Cookie>();
      if (removed) cookies.delete(name);
      else cookies.set(name, { value, path });
      this.jar.set(url.host, cookies);
    }
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).host)?.get(name)?.value;
  }

  setCookie(origin: string, name: string, value: string, path = '/'): void {
    const host = new URL(origin).host;
    const cookies = this.jar.get(host) ?? new Map<string, Cookie>();
    cookies.set(name, { value, path });
    this.jar.set(host, cookies);
  }

  /** One request as a navigation from `from` (none: typed in the address bar). */
  async visit(
    target: string | URL,
    options: {
      method?: string;
      from?: URL;
      form?: Record<string, string>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Visit> {
    const url = new URL(target);
    const site = !options.from ? 'none' : options.from.origin === url.origin ? 'same-origin' : 'cross-site';
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-site': site,
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
      ...options.headers,
    };
    if (options.from && site === 'same-origin') headers.origin = url.origin;
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    // node:http rather than fetch, which sends Sec-Fetch headers of its own (`cors`).
    const answer = await new Promise<{ status: number; headers: Headers; text: string }>(
      (resolve, reject) => {
        const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const answerHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
                answerHeaders.append(name, v);
              }
            }
            resolve({
              status: res.statusCode!,
              headers: answerHeaders,
              text: Buffer.concat(chunks).toString(),
            });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      },
    );
    const setCookies = answer.headers.getSetCookie();
    this.keep(url, setCookies);
    return { status: answer.status, url, headers: answer.headers, text: answer.text, setCookies };
  }

  /**
   * Navigates to `start` and follows redirects until an answer that is not one, or until `stop`
   * says to (the redirect is then not followed). Answers every step.
   */
  async navigate(start: string | URL, stop?: (next: URL) => boolean, from?: URL): Promise<Visit[]> {
    const visits = [await this.visit(start, { from })];
    for (let i = 0; i < 20; i++) {
      const last = visits.at(-1)!;
      const location = last.headers.get('location');
      if (last.status < 300 || last.status >= 400 || !location) return visits;
      const next = new URL(location, last.url);
      if (stop?.(next)) return visits;
      visits.push(await this.visit(next, { from: last.url }));
    }
    throw new Error(`more than 20 redirects from ${start}`);
  }
}
