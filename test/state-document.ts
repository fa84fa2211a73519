/**
 * A state document (E5) of `count` features in three projects, with strategies (constraints,
 * strategy variants, segments), environment variants and tags — written by hand in the shape
 * of the state format, for the import tests and the benchmark. With a `prefix`, its features,
 * projects and segments are apart from anything else on the instance (the benchmark's).
 */
export function stateDocument(count: number, { prefix = '', firstSegmentId = 1 } = {}) {
  const [main, alpha, beta] = [prefix ? `${prefix}main` : 'default', `${prefix}alpha`, `${prefix}beta`];
  const projects = [main, alpha, beta];
  const [everyone, alphaOnly] = [firstSegmentId, firstSegmentId + 1];
  const features = [];
  const featureEnvironments = [];
  const featureStrategies = [];
  const featureTags = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}flag-${String(i).padStart(4, '0')}`;
    const project = projects[i % projects.length]!;
    features.push({
      name,
      project,
      description: i % 5 === 0 ? null : `Flag number ${i}`,
      type: i % 7 === 0 ? 'experiment' : 'release',
      stale: i % 11 === 0,
      impressionData: i % 2 === 0,
      archived: i % 50 === 49,
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
    });
    featureEnvironments.push(
      { featureName: name, environment: 'development', enabled: true, variants: [] },
      {
        featureName: name,
        environment: 'production',
        enabled: i % 3 === 0,
        variants:
          i % 4 === 0
            ? [
                { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
                {
                  name: 'green',
                  weight: 200,
                  weightType: 'fix',
                  stickiness: 'userId',
                  payload: { type: 'json', value: '{"a":1}' },
                },
              ]
            : [],
      },
    );
    featureStrategies.push({
      id: `${name}-dev-0`,
      featureName: name,
      projectId: project,
      environment: 'development',
      name: 'flexibleRollout',
      parameters: { rollout: String(i % 101), stickiness: 'default', groupId: name },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: [`u${i}`, `u${i + 1}`] },
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: '1.2.3', inverted: i % 2 === 0 },
      ],
      variants:
        i % 6 === 0 ? [{ name: 'on', weight: 1000, weightType: 'variable', stickiness: 'default' }] : [],
      segments: project === alpha ? [everyone, alphaOnly] : [everyone],
      sortOrder: 0,
    });
    if (i % 3 === 0) {
      featureStrategies.push({
        id: `${name}-prod-0`,
        featureName: name,
        projectId: project,
        environment: 'production',
        name: i % 2 === 0 ? 'default' : 'userWithId',
        parameters: i % 2 === 0 ? {} : { userIds: '1,2,3' },
        constraints: [
          { contextName: 'region', operator: 'STR_STARTS_WITH', values: ['eu'], caseInsensitive: true },
        ],
        title: 'Production',
        sortOrder: 0,
      });
    }
    featureTags.push({ featureName: name, tagType: 'team', tagValue: `team-${i % 10}` });
    if (i % 2 === 0) featureTags.push({ featureName: name, tagType: 'simple', tagValue: 'bulk' });
  }
  return {
    version: 4,
    projects: [
      ...(prefix ? [{ id: main, name: 'Main' }] : []),
      { id: alpha, name: 'Alpha', description: 'First', environments: ['development', 'production'] },
      { id: beta, name: 'Beta', defaultStickiness: 'userId' },
    ],
    tagTypes: [{ name: 'team', description: 'Owning team', icon: 'group' }],
    segments: [
      {
        id: everyone,
        name: `${prefix}beta-testers`,
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }],
      },
      {
        id: alphaOnly,
        name: `${prefix}alpha-only`,
        project: alpha,
        description: 'Alpha users',
        constraints: [],
      },
    ],
    features,
    featureEnvironments,
    featureStrategies,
    featureTags,
  };
}
