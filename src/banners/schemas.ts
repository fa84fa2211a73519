import { Type } from '@sinclair/typebox';
import { IntegerId, Nullable, Timestamp } from '../http/schemas.js';

export const BANNER_VARIANTS = ['info', 'warning', 'error', 'success'] as const;
export type BannerVariant = (typeof BANNER_VARIANTS)[number];

export const BannerParams = Type.Object({ id: IntegerId });

const OptionalText = (maxLength: number, description: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, description })));

/**
 * The body of a create and of E1 alike: only `message` is required. Other properties (such as the
 * `id` and `createdAt` of a banner read back and sent again) are ignored.
 */
export const BannerBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 10_000, description: 'Shown to every user; Markdown' }),
  enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  variant: Type.Optional(
    Type.Unsafe<BannerVariant>({ type: 'string', enum: [...BANNER_VARIANTS], description: 'Default `info`' }),
  ),
  sticky: Type.Optional(Type.Boolean({ description: 'Default false' })),
  icon: OptionalText(100, 'A Material icon name; `none` for no icon; default: the icon of the variant'),
  link: OptionalText(2000, 'An absolute http(s) link, a relative link, or `dialog` (opens the dialog)'),
  linkText: OptionalText(1000, 'Default `More info`'),
  dialogTitle: OptionalText(1000, 'Default: the link text'),
  dialog: OptionalText(100_000, 'Markdown shown in the dialog'),
});

export const BannerSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  message: Type.String(),
  enabled: Type.Boolean(),
  variant: Type.String(),
  sticky: Type.Boolean(),
  icon: Nullable(Type.String()),
  link: Nullable(Type.String()),
  linkText: Nullable(Type.String()),
  dialogTitle: Nullable(Type.String()),
  dialog: Nullable(Type.String()),
  createdAt: Timestamp,
});

export const BannerList = Type.Object({ banners: Type.Array(BannerSchema) });
