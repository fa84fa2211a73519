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
        value={values.message}
        onValue={(v) => form.set('message', v)}
        error={form.errorAt('message')}
      />
      <div class="row">
        <SelectField
          label="Look"
          value={values.variant}
          choices={VARIANTS}
          onValue={(v) => form.set('variant', v as Banner['variant'])}
          error={form.errorAt('variant')}
        />
        <TextField
          label="Icon"
          hint="Leave empty for the look's icon; none for no icon."
          value={values.icon}
          onValue={(v) => form.set('icon', v)}
          error={form.errorAt('icon')}
        />
      </div>
      <div class="row">
        <CheckboxField label="Shown" checked={values.enabled} onValue={(v) => form.set('enabled', v)} />
        <CheckboxField
          label="Stays on top when scrolling"
          checked={values.sticky}
          onValue={(v) => form.set('sticky', v)}
        />
      </div>
      <div class="row">
        <TextField
          label="Link"
          hint="A web address, a path of this site, or dialog."
          value={values.link}
          onValue={(v) => form.set('link', v)}
          error={form.errorAt('link')}
        />
        <TextField
          label="Link text"
          value={values.linkText}
          onValue={(v) => form.set('linkText', v)}
          error={form.errorAt('linkText')}
        />
      </div>
      {values.link === 'dialog' && (
        <>
          <TextField
            label="Dialog title"
            value={values.dialogTitle}
            onValue={(v) => form.set('dialogTitle', v)}
            error={form.errorAt('dialogTitle')}
          />
          <TextAreaField
            label="Dialog"
            hint="Markdown."
            value={values.dialog}
            onValue={(v) => form.set('dialog', v)}
            error={form.errorAt('dialog')}
          />
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
