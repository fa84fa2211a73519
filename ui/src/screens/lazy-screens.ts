import type { ComponentType } from 'preact';
import type { RouteProps } from '../router';
import { AccessPage } from './access/access-page';
import { ApplicationPage } from './applications/application-page';
import { ApplicationsPage } from './applications/applications-page';
import { BannersPage } from './banners/banners-page';
import { ChangeRequestPage } from './change-requests/change-request-page';
import { ChangeRequestsPage } from './change-requests/change-requests-page';
import { ContextFieldPage } from './context/context-field-page';
import { ContextFieldsPage } from './context/context-fields-page';
import { EnvironmentsPage } from './environments/environments-page';
import { EventsPage } from './events/events-page';
import { GroupPage } from './groups/group-page';
import { GroupsPage } from './groups/groups-page';
import { ImportExportPage } from './import-export/import-export-page';
import { IntegrationPage } from './integrations/integration-page';
import { IntegrationsPage } from './integrations/integrations-page';
import { InviteLinksPage } from './invites/invite-links-page';
import { OidcPage } from './oidc/oidc-page';
import { PlaygroundPage } from './playground/playground-page';
import { ProfilePage } from './profile/profile-page';
import { ProjectSettingsPage } from './projects/project-settings-page';
import { ReleaseTemplatePage } from './release-templates/release-template-page';
import { ReleaseTemplatesPage } from './release-templates/release-templates-page';
import { RolePage } from './roles/role-page';
import { RolesPage } from './roles/roles-page';
import { SegmentPage } from './segments/segment-page';
import { SegmentsPage } from './segments/segments-page';
import { StrategyTypePage } from './strategies/strategy-type-page';
import { StrategyTypesPage } from './strategies/strategy-types-page';
import { TagTypesPage } from './tag-types/tag-types-page';
import { ApiTokensPage } from './tokens/api-tokens-page';
import { ProjectTokensPage } from './tokens/project-tokens-page';
import { UsersPage } from './users/users-page';

/** The screens loaded on first use, by the name the route table gives them. */
export const lazyScreens = {
  projectAccess: AccessPage,
  projectTokens: ProjectTokensPage,
  projectSettings: ProjectSettingsPage,
  changeRequests: ChangeRequestsPage,
  changeRequest: ChangeRequestPage,
  segments: SegmentsPage,
  segment: SegmentPage,
  strategyTypes: StrategyTypesPage,
  strategyType: StrategyTypePage,
  contextFields: ContextFieldsPage,
  contextField: ContextFieldPage,
  applications: ApplicationsPage,
  application: ApplicationPage,
  events: EventsPage,
  environments: EnvironmentsPage,
  tagTypes: TagTypesPage,
  integrations: IntegrationsPage,
  integration: IntegrationPage,
  playground: PlaygroundPage,
  profile: ProfilePage,
  users: UsersPage,
  groups: GroupsPage,
  group: GroupPage,
  roles: RolesPage,
  role: RolePage,
  inviteLinks: InviteLinksPage,
  apiTokens: ApiTokensPage,
  banners: BannersPage,
  oidc: OidcPage,
  importExport: ImportExportPage,
  releaseTemplates: ReleaseTemplatesPage,
  releaseTemplate: ReleaseTemplatePage,
} satisfies Record<string, ComponentType<RouteProps>>;
