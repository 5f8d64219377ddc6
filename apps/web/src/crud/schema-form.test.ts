import type { FormInstance } from '@arco-design/web-react';
import { groupFormDefaults, groupFormSchema } from '@atrium/contracts/forms';
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { testI18n } from '../../test/i18n';
import { ApiError } from '../api';
import { useSchemaForm } from './schema-form';

let en: i18n;
// the hook takes its `t` from react-i18next; here it is the English bundle's
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: en.t }) }));
beforeAll(async () => {
  en = await testI18n('en-US', () => import('./messages'));
});

/** The part of Arco's form instance the hook uses: values in, field errors out. */
function fakeForm(values: Record<string, unknown>) {
  const errors: Record<string, string | undefined> = {};
  const form = {
    getFieldsValue: () => values,
    getFieldError: (field: string) => (errors[field] ? { message: errors[field] } : null),
    setFields: (fields: Record<string, { error?: { message: string } }>) => {
      for (const [field, { error }] of Object.entries(fields)) errors[field] = error?.message;
    },
  };
  return { form: form as unknown as FormInstance, values, errors };
}

const label = (field: string) =>
  ({ minEncodingRate: 'Min rate', maxEncodingRate: 'Max rate', defaultEncodingRate: 'Default rate' })[field] ?? field;
const rules = { defaultEncodingRate: 'Default must lie between min and max', minEncodingRate: 'Min must not exceed max' };

describe('useSchemaForm: a plain form checked against its contract', () => {
  it('passes valid values and hands back the parsed data', () => {
    const { form, errors } = fakeForm({ ...groupFormDefaults });
    const { validate } = useSchemaForm(form, groupFormSchema, { label, rules });
    const result = validate();
    expect(result.ok).toBe(true);
    expect(result.data).toEqual(groupFormDefaults);
    expect(Object.values(errors).filter(Boolean)).toEqual([]);
  });

  it("shows the schema's custom rules in the page's words, under their fields", () => {
    const { form, errors } = fakeForm({ ...groupFormDefaults, minEncodingRate: 900, maxEncodingRate: 800, defaultEncodingRate: 1000 });
    const { validate } = useSchemaForm(form, groupFormSchema, { label, rules });
    const result = validate();
    expect(result.ok).toBe(false);
    expect(result.data).toBeUndefined();
    expect(errors).toEqual({ minEncodingRate: 'Min must not exceed max', defaultEncodingRate: 'Default must lie between min and max' });
  });

  it('checks only the fields asked for, and says nothing of the others', () => {
    const { form, errors } = fakeForm({ ...groupFormDefaults, maxEncodingRate: 5000, minEncodingRate: 10 });
    const { validate } = useSchemaForm(form, groupFormSchema, { label, rules });
    expect(validate(['maxEncodingRate']).errors).toEqual({ maxEncodingRate: 'Max rate can be at most 1800' });
    expect(errors).toEqual({ maxEncodingRate: 'Max rate can be at most 1800' });
  });

  it('re-checks a flagged field as soon as it changes, so a corrected field loses its message', () => {
    const state = fakeForm({ ...groupFormDefaults, maxEncodingRate: 5000 });
    const { validate, recheck } = useSchemaForm(state.form, groupFormSchema, { label, rules });
    validate();
    expect(state.errors.maxEncodingRate).toBe('Max rate can be at most 1800');
    state.values.maxEncodingRate = 1800;
    recheck({ maxEncodingRate: 1800 });
    expect(state.errors.maxEncodingRate).toBeUndefined();
    // a changed field that showed nothing is left alone until the next submit
    state.values.encodingFrameRate = 99;
    recheck({ encodingFrameRate: 99 });
    expect(state.errors.encodingFrameRate).toBeUndefined();
  });

  it("puts a server's field errors under their fields; an answer naming none is the caller's to show", () => {
    const { form, errors } = fakeForm({ ...groupFormDefaults });
    const { showServerErrors } = useSchemaForm(form, groupFormSchema, { label, rules });
    const refused = new ApiError('invalid', 40001, 400, { fields: [{ field: 'maxEncodingRate', rule: 'max', message: 'too high' }] });
    expect(showServerErrors(refused)).toBe(true);
    expect(errors).toEqual({ maxEncodingRate: 'Max rate: too high' });
    expect(showServerErrors(new ApiError('Internal server error', 500, 500))).toBe(false);
  });
});
