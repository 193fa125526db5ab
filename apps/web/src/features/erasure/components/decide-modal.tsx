import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  checkErasureDecision,
  erasureMessages,
  erasureTextMax,
  type ErasureRequest,
} from '@app/contract/erasure';
import {
  erasureDecisionLabels,
  erasureDecisions,
  erasureLegalBases,
  erasureLegalBasisLabels,
  erasurePartHints,
  erasurePartLabels,
  erasureParts,
  erasureTexts,
} from '@app/contract/erasure-texts';
import { FormField } from '#web/components/form-field.tsx';
import { FormModal, useFormModal } from '#web/components/form-modal.tsx';
import {
  blankSignature,
  SignatureFields,
  signatureErrorField,
  signatureFormSchema,
  type SignatureFormValues,
} from '#web/components/signature-fields.tsx';
import type { ApiError } from '#web/lib/api-client.ts';
import { useDecideErasureRequest } from '../api/decide-erasure-request.ts';

type Input = {
  decision: string;
  parts: string[];
  legalBasis: string;
  basisNote: string;
  signature: SignatureFormValues;
};
const blank: Input = { decision: '', parts: [], legalBasis: '', basisNote: '', signature: blankSignature };

const formSchema = z
  .object({
    decision: z.string().min(1, erasureMessages.decisionInvalid).pipe(z.enum(erasureDecisions)),
    parts: z.preprocess((v) => (Array.isArray(v) ? v : []), z.array(z.enum(erasureParts))),
    legalBasis: z
      .string()
      .transform((v) => v || undefined)
      .pipe(z.enum(erasureLegalBases).optional()),
    basisNote: z
      .string()
      .trim()
      .max(erasureTextMax, erasureMessages.basisNoteTooLong)
      .transform((v) => v || undefined),
    signature: signatureFormSchema,
  })
  .superRefine(checkErasureDecision);

const ownFields = ['decision', 'parts', 'legalBasis', 'basisNote'] as const;
/** A refusal naming one of the form's fields goes under it; a 409 (decided meanwhile, a hold) is a toast. */
function fieldOfError(error: ApiError) {
  const path = (error.data as { errors?: { path?: unknown }[] } | null)?.errors?.[0]?.path;
  if (error.status === 400 && ownFields.includes(path as (typeof ownFields)[number]))
    return path as (typeof ownFields)[number];
  return signatureErrorField(error);
}

/**
 * Deciding one request (decision 085): erase everything, erase some parts and keep the rest under a
 * legal basis, or refuse under one; signed. The erasure is carried out when the signature is accepted.
 */
export function DecideModal({ request, onClose }: { request: ErasureRequest | null; onClose: () => void }) {
  const decide = useDecideErasureRequest();
  const form = useFormModal({ show: request !== null, resolver: zodResolver(formSchema), blank });
  const decision = form.watch('decision');
  const errors = form.formState.errors;
  const basisLabel = decision === 'refuse' ? erasureTexts.refuseBasisLabel : erasureTexts.keptBasisLabel;
  return (
    <FormModal
      form={form}
      show={request !== null}
      onClose={onClose}
      title={request ? `${erasureTexts.decide}: ${request.patientLabel}` : ''}
      submitLabel={decision === 'refuse' ? 'Sign and refuse' : 'Sign and erase'}
      pending={decide.isPending}
      onSave={(body) => decide.mutateAsync({ id: request!._id, body })}
      saved={erasureMessages.erased}
      fieldOfError={fieldOfError}
    >
      <fieldset className="mb-3" aria-describedby={errors.decision ? 'decision-error' : undefined}>
        <legend className="fs-6 fw-semibold">{erasureTexts.decisionLabel}</legend>
        {erasureDecisions.map((d) => (
          <div className="form-check" key={d}>
            <input
              className="form-check-input"
              type="radio"
              id={`decision-${d}`}
              value={d}
              {...form.register('decision')}
            />
            <label className="form-check-label" htmlFor={`decision-${d}`}>
              {erasureDecisionLabels[d]}
            </label>
          </div>
        ))}
        {errors.decision ? (
          <div id="decision-error" className="invalid-feedback d-block">
            {errors.decision.message}
          </div>
        ) : null}
      </fieldset>
      {decision === 'erase-in-part' ? (
        <fieldset className="mb-3" aria-describedby={errors.parts ? 'parts-error' : undefined}>
          <legend className="fs-6 fw-semibold">{erasureTexts.partsLabel}</legend>
          {erasureParts.map((p) => (
            <div className="form-check mb-1" key={p}>
              <input
                className="form-check-input"
                type="checkbox"
                id={`part-${p}`}
                value={p}
                aria-describedby={`part-${p}-hint`}
                {...form.register('parts')}
              />
              <label className="form-check-label" htmlFor={`part-${p}`}>
                {erasurePartLabels[p]}
              </label>
              <div id={`part-${p}-hint`} className="form-text mt-0">
                {erasurePartHints[p]}
              </div>
            </div>
          ))}
          {errors.parts ? (
            <div id="parts-error" className="invalid-feedback d-block">
              {errors.parts.message}
            </div>
          ) : null}
        </fieldset>
      ) : null}
      {decision && decision !== 'erase' ? (
        <>
          <FormField
            as="select"
            label={basisLabel}
            required
            error={errors.legalBasis?.message}
            {...form.register('legalBasis')}
          >
            <option value="">Choose the legal basis</option>
            {erasureLegalBases.map((b) => (
              <option key={b} value={b}>
                {erasureLegalBasisLabels[b]}
              </option>
            ))}
          </FormField>
          <FormField
            as="textarea"
            label={erasureTexts.basisNoteLabel}
            hint={erasureTexts.basisNoteHint}
            rows={2}
            maxLength={erasureTextMax}
            error={errors.basisNote?.message}
            {...form.register('basisNote')}
          />
        </>
      ) : null}
      {decision && decision !== 'refuse' ? (
        <p className="alert alert-warning">{erasureTexts.confirmErase}</p>
      ) : null}
      <SignatureFields form={form} meanings={['approval', 'responsibility']} />
    </FormModal>
  );
}
