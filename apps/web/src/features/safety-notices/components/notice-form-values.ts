import { z } from 'zod';
import {
  safetyNoticeBodySchema,
  safetyNoticeMessages,
  serialOrder,
  type SafetyNotice,
  type SafetyNoticeBody,
} from '@app/contract/safety-notices';
import type { ApiError } from '#web/lib/api-client.ts';

/**
 * The notice form's values: the selection and remedy as an admin types them (one serial range per
 * line as "first last", version codes separated by commas), checked with the contract's messages and
 * turned into the API's body.
 */
export type NoticeFormValues = {
  reference: string;
  title: string;
  kind: string;
  description: string;
  remedyText: string;
  serialRanges: string;
  appVersionCodes: string;
  groupId: string;
  remedyKind: string;
  remedyId: string;
};

export const blankNotice: NoticeFormValues = {
  reference: '',
  title: '',
  kind: 'corrective-action',
  description: '',
  remedyText: '',
  serialRanges: '',
  appVersionCodes: '',
  groupId: '',
  remedyKind: '',
  remedyId: '',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const rangesOf = (text: string) =>
  lines(text).map((line) => {
    const [from = '', to = from] = line.split(/\s+/);
    return { from, to };
  });
const codesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((c) => Number(c));

const rangeProblem = (text: string) => {
  for (const line of lines(text)) {
    const parts = line.split(/\s+/);
    if (parts.length > 2) return `"${line}": a range is a first and a last serial`;
    if (parts.length === 2 && serialOrder(parts[0]!, parts[1]!) > 0)
      return `"${line}": the last serial comes before the first (${safetyNoticeMessages.rangeReversed})`;
  }
  return null;
};

const { shape } = safetyNoticeBodySchema;
export const noticeFormSchema = z
  .object({
    reference: shape.reference,
    title: shape.title,
    kind: z.string().pipe(shape.kind),
    description: shape.description,
    remedyText: shape.remedyText,
    serialRanges: z.string(),
    appVersionCodes: z.string(),
    groupId: z.string(),
    remedyKind: z.string(),
    remedyId: z.string(),
  })
  .superRefine((v, ctx) => {
    const problem = rangeProblem(v.serialRanges);
    if (problem) ctx.addIssue({ code: 'custom', path: ['serialRanges'], message: problem });
    if (codesOf(v.appVersionCodes).some((c) => !Number.isInteger(c) || c < 0))
      ctx.addIssue({
        code: 'custom',
        path: ['appVersionCodes'],
        message: safetyNoticeMessages.versionInvalid,
      });
    if (!lines(v.serialRanges).length && !codesOf(v.appVersionCodes).length && !v.groupId)
      ctx.addIssue({
        code: 'custom',
        path: ['serialRanges'],
        message: safetyNoticeMessages.selectionRequired,
      });
    if (v.remedyKind && !v.remedyId)
      ctx.addIssue({ code: 'custom', path: ['remedyId'], message: 'Choose the remedy' });
  })
  .transform((v): SafetyNoticeBody => ({
    reference: v.reference,
    title: v.title,
    kind: v.kind,
    description: v.description,
    remedyText: v.remedyText,
    selection: {
      serialRanges: rangesOf(v.serialRanges),
      appVersionCodes: codesOf(v.appVersionCodes),
      groupId: v.groupId || null,
    },
    remedy: v.remedyKind ? { kind: v.remedyKind as 'app-update', id: v.remedyId.trim() } : null,
  }));

/** A draft's values in the form, to change it. */
export const valuesOf = (n: SafetyNotice): NoticeFormValues => ({
  reference: n.reference,
  title: n.title,
  kind: n.kind,
  description: n.description,
  remedyText: n.remedyText,
  serialRanges: n.selection.serialRanges.map((r) => `${r.from} ${r.to}`).join('\n'),
  appVersionCodes: n.selection.appVersionCodes.join(', '),
  groupId: n.selection.groupId ?? '',
  remedyKind: n.remedy?.kind ?? '',
  remedyId: n.remedy?.id ?? '',
});

/** The form field an API refusal names (selection.serialRanges.0.to goes under the ranges). */
export function noticeErrorField(error: ApiError): keyof NoticeFormValues | undefined {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  if (error.status !== 400 || typeof path !== 'string') return undefined;
  if (path.startsWith('selection.serialRanges') || path === 'selection') return 'serialRanges';
  if (path.startsWith('selection.appVersionCodes')) return 'appVersionCodes';
  if (path === 'selection.groupId') return 'groupId';
  if (path.startsWith('remedy')) return 'remedyId';
  const own: readonly string[] = ['reference', 'title', 'kind', 'description', 'remedyText'];
  return own.includes(path) ? (path as keyof NoticeFormValues) : undefined;
}
