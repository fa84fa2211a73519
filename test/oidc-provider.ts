import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
// Given explicitly, so that the provider does not warn about using it.
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';

/** What the provider says about a person (the claims of scopes `email` and `profile`). */
export interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

type Jwk = Record<string, unknown> & { kid: string };

function signingKey(): Jwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `key-${randomBytes(4).toString('hex')}`;
  return {
    ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid,
    alg: 'RS256',
    use: 'sig',
  };
}

/** The public half of a key set, as a provider publishes it. */
function published(keys: Jwk[]) {
  return {
    keys: keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
}

/**
 * A real OpenID provider (oidc-provider, certified) on a loopback port, for tests: one client
 * (Flagpole), people by subject, and the login and consent interactions completed at once for
 * whoever `signInAs` names. Its signing keys can be rotated (a new provider instance behind the
 * same port and issuer), and what it answers can be bent: the key set it publishes, its token
 * endpoint's answer.
 */
export class TestOpenIdProvider {
  readonly clientId = 'flagpole';
  readonly clientSecret = randomBytes(24).toString('hex');
  readonly people = new Map<string, Person>();
  /** The subject who signs in at the next login interaction. */
  signInAs = '';
  /** When set, the next interactions end with this error instead (the person said no). */
  refuseWith?: string;
  /** Requests the provider answered, by kind. */
  readonly seen = { keySets: 0, tokens: 0, logins: 0, endSessions: 0 };
  /** The last authorization request, as the browser brought it. */
  lastAuthorization?: URL;
  /** When set, published instead of the provider's own key set. */
  publishedKeys?: unknown;
  /** When set, rewrites the token endpoint's answer. */
  rewriteTokens?: (answer: Record<string, string>) => Record<string, string>;

  private provider!: Provider;
  private keys: Jwk[] = [];
  private server!: Server;
  issuer = '';

  private constructor(
    private readonly flagpoleUrl: string,
    private readonly loginPages: boolean,
  ) {}

  /**
   * `loginPages`: the provider shows its own (development) login and consent pages, for a real
   * browser to fill in (any password; the login is the subject); otherwise the interactions
   * complete at once for whoever `signInAs` names.
   */
  static async start(flagpoleUrl: string, { loginPages = false } = {}): Promise<TestOpenIdProvider> {
    const op = new TestOpenIdProvider(flagpoleUrl, loginPages);
    op.server = createServer((req, res) => {
      op.handle(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => op.server.listen(0, '127.0.0.1', resolve));
    op.issuer = `http://127.0.0.1:${(op.server.address() as AddressInfo).port}`;
    op.useKeys([signingKey()]);
    return op;
  }

  get discoverUrl(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** The key set of the provider as it stands (public halves). */
  get keySet(): unknown {
    return published(this.keys);
  }

  /**
   * Signs with a new key from now on and publishes only it. The provider starts afresh (its
   * sessions and grants are gone), as a provider restarted with new keys would.
   */
  rotateKeys(): void {
    this.useKeys([signingKey()]);
  }

  private useKeys(keys: Jwk[]): void {
    this.keys = keys;
    this.provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: [`${this.flagpoleUrl}/auth/oidc/callback`],
          post_logout_redirect_uris: [`${this.flagpoleUrl}/`],
          response_types: ['code'],
          grant_types: ['authorization_code'],
        },
      ],
      adapter: createMemoryAdapter(0),
      jwks: { keys },
      findAccount: (_ctx: unknown, sub: string) => {
        const person = this.people.get(sub);
        return person ? { accountId: sub, claims: async () => ({ sub, ...person }) } : undefined;
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: {
        devInteractions: { enabled: this.loginPages },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: (ctx: { body: string }, form: string) => {
            ctx.body = `<!DOCTYPE html><html><body>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
          },
        },
      },
      cookies: { keys: ['flagpole-test-provider'] },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
      },
      renderError: (ctx: { type: string; body: unknown }, out: unknown) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    if (!this.loginPages && url.pathname.startsWith('/interaction/')) return this.interact(req, res);
    if (url.pathname === '/jwks') {
      this.seen.keySets++;
      if (this.publishedKeys) {
        res.setHeader('content-type', 'application/jwk-set+json');
        res.end(JSON.stringify(this.publishedKeys));
        return;
      }
    }
    if (url.pathname === '/auth') this.lastAuthorization = url;
    if (url.pathname === '/session/end/confirm') this.seen.endSessions++;
    if (url.pathname === '/token') {
      this.seen.tokens++;
      if (this.rewriteTokens) this.rewriteAnswer(res, this.rewriteTokens);
    }
    this.provider.callback()(req, res);
  }

  private rewriteAnswer(
    res: ServerResponse,
    rewrite: (answer: Record<string, string>) => Record<string, string>,
  ) {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      if (res.statusCode !== 200 || chunk === undefined) return end(chunk);
      const body = JSON.stringify(rewrite(JSON.parse(String(chunk))));
      res.setHeader('content-length', Buffer.byteLength(body));
      return end(body);
    }) as ServerResponse['end'];
  }

  /** Login: whoever `signInAs` names. Consent: whatever was asked. */
  private async interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (this.refuseWith) {
      await this.provider.interactionFinished(req, res, {
        error: this.refuseWith,
        error_description: 'The person did not let Flagpole in',
      });
      return;
    }
    if (details.prompt.name === 'login') {
      this.seen.logins++;
      await this.provider.interactionFinished(
        req,
        res,
        { login: { accountId: this.signInAs } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant =
      (details.grantId ? await this.provider.Grant.find(details.grantId) : undefined) ??
      new this.provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await this.provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
