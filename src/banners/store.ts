import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface BannerValues {
  message: string;
  enabled: boolean;
  variant: string;
  sticky: boolean;
  icon: string | null;
  link: string | null;
  linkText: string | null;
  dialogTitle: string | null;
  dialog: string | null;
}

export interface Banner extends BannerValues {
  id: number;
  createdAt: Date;
}

interface BannerRecord {
  id: number;
  message: string;
  enabled: boolean;
  variant: string;
  sticky: boolean;
  icon: string | null;
  link: string | null;
  link_text: string | null;
  dialog_title: string | null;
  dialog: string | null;
  created_at: Date;
}

const COLUMNS =
  'id, message, enabled, variant, sticky, icon, link, link_text, dialog_title, dialog, created_at';

function toBanner(r: BannerRecord): Banner {
  return {
    id: r.id,
    message: r.message,
    enabled: r.enabled,
    variant: r.variant,
    sticky: r.sticky,
    icon: r.icon,
    link: r.link,
    linkText: r.link_text,
    dialogTitle: r.dialog_title,
    dialog: r.dialog,
    createdAt: r.created_at,
  };
}

function values(b: BannerValues): unknown[] {
  return [b.message, b.enabled, b.variant, b.sticky, b.icon, b.link, b.linkText, b.dialogTitle, b.dialog];
}

/** Every banner, oldest first. */
export async function listBanners(db: Queryable): Promise<Banner[]> {
  const { rows } = await db.query<BannerRecord>(`SELECT ${COLUMNS} FROM banners ORDER BY id`);
  return rows.map(toBanner);
}

export async function findBanner(
  db: Queryable,
  id: number,
  { lock }: ReadOptions = {},
): Promise<Banner | null> {
  const { rows } = await db.query<BannerRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM banners WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toBanner(rows[0]) : null;
}

export async function insertBanner(db: Queryable, b: BannerValues): Promise<Banner> {
  const { rows } = await db.query<BannerRecord>(
    `INSERT INTO banners (message, enabled, variant, sticky, icon, link, link_text, dialog_title, dialog)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    values(b),
  );
  return toBanner(rows[0]!);
}

export async function updateBanner(db: Queryable, id: number, b: BannerValues): Promise<Banner> {
  const { rows } = await db.query<BannerRecord>(
    `UPDATE banners
        SET message = $2, enabled = $3, variant = $4, sticky = $5, icon = $6, link = $7, link_text = $8,
            dialog_title = $9, dialog = $10
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...values(b)],
  );
  return toBanner(rows[0]!);
}

export async function deleteBanner(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM banners WHERE id = $1', [id]);
}
