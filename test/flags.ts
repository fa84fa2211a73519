import type { TestServer } from './server.js';

/** Set-up through the admin API, as a script or the UI would do it. Each call must succeed. */
export function flags(server: TestServer, project = 'default') {
  const base = `/api/admin/projects/${project}/features`;
  async function ok(method: string, url: string, body?: unknown) {
    const res = await server.request(method, url, {
      token: server.adminToken,
      body,
      contentType: 'application/json',
    });
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${res.text}`);
    return res.body;
  }
  return {
    create: (name: string, extra: object = {}) => ok('POST', base, { name, ...extra }),
    addStrategy: (feature: string, environment: string, strategy: object) =>
      ok('POST', `${base}/${feature}/environments/${environment}/strategies`, strategy),
    enable: (feature: string, environment: string) =>
      ok('POST', `${base}/${feature}/environments/${environment}/on`),
    disable: (feature: string, environment: string) =>
      ok('POST', `${base}/${feature}/environments/${environment}/off`),
    setVariants: (feature: string, environment: string, variants: object[]) =>
      ok('PUT', `${base}/${feature}/environments/${environment}/variants`, variants),
    addDependency: (feature: string, dependency: object) =>
      ok('POST', `${base}/${feature}/dependencies`, dependency),
    archive: (names: string[]) => ok('POST', `/api/admin/projects/${project}/archive`, { features: names }),
    revive: (names: string[]) => ok('POST', `/api/admin/projects/${project}/revive`, { features: names }),
    createSegment: (segment: object) => ok('POST', '/api/admin/segments', segment),
    createContextField: (field: object) => ok('POST', '/api/admin/context', field),
    tag: (feature: string, type: string, value: string) =>
      ok('POST', `/api/admin/features/${feature}/tags`, { type, value }),
    /** Whether the feature is on in the environment, as the admin reads it. */
    isEnabled: async (feature: string, environment: string) => {
      const res = await server.request('GET', `${base}/${feature}`, { token: server.adminToken });
      return res.body.environments.find((e: { name: string }) => e.name === environment).enabled as boolean;
    },
  };
}
