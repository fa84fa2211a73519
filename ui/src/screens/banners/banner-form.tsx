import { api } from '../../api/client';
import type { Banner } from '../../api/types';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  banner: Banner | null;
  onSaved(): void;
  onCancel(): void;
}

const VARIANTS = ['info', 'warning', 'error', 'success'].map((v) => ({ value: v, label: v }));

const orNull = (text: string) => (text.trim() ? text : null);

/** A banner's message, look, link and dialog; a new one or a change (the server replaces it whole). */
export function BannerForm({ banner, onSaved, onCancel }: Props) {
  const form = useForm({
    message: banner?.message ?? '',
    variant: banner?.variant ?? 'info',
    enabled: banner?.enabled ?? true,
    sticky: banner?.sticky ?? false,
    icon: banner?.icon ?? '',
    link: banner?.link ?? '',
    linkText: banner?.linkText ?? '',
    dialogTitle: banner?.dialogTitle ?? '',
    dialog: banner?.dialog ?? '',
  });
  const { values } = form;
  return (
    <Form
      label={banner ? 'Edit banner' : 'New banner'}
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async (v) => {
        const body = {
          message: v.message,
          variant: v.variant,
          enabled: v.enabled,
          sticky: v.sticky,
          icon: orNull(v.icon),
          link: orNull(v.link),
          linkText: orNull(v.linkText),
          dialogTitle: orNull(v.dialogTitle),
          dialog: orNull(v.dialog),
        };
        if (banner) await api.put(`/api/admin/banners/${banner.id}`, body);
        else await api.post('/api/admin/banners', body);
        onSaved();
      })}
    >
      <TextAreaField
        label="Message"
        hint="Markdown: **bold**, *italic*, `code` and [links](https://…)."
        required
        {...form.field('message')}
      />
      <div class="row">
        <SelectField label="Look" {...form.field('variant')} choices={VARIANTS} />
        <TextField
          label="Icon"
          hint="Leave empty for the look's icon; none for no icon."
          {...form.field('icon')}
        />
      </div>
      <div class="row">
        <CheckboxField label="Shown" {...form.checkbox('enabled')} />
        <CheckboxField label="Stays on top when scrolling" {...form.checkbox('sticky')} />
      </div>
      <div class="row">
        <TextField
          label="Link"
          hint="A web address, a path of this site, or dialog."
          {...form.field('link')}
        />
        <TextField label="Link text" {...form.field('linkText')} />
      </div>
      {values.link === 'dialog' && (
        <>
          <TextField label="Dialog title" {...form.field('dialogTitle')} />
          <TextAreaField label="Dialog" hint="Markdown." {...form.field('dialog')} />
        </>
      )}
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {banner ? 'Save banner' : 'Create banner'}
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
