import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  acknowledgeBodySchema,
  type AcknowledgeBody,
  type Acknowledgement,
} from '@app/contract/safety-notices';
import { safetyNoticeKindLabels, safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { CenteredCard } from '#web/components/centered-card.tsx';
import { FormField } from '#web/components/form-field.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorMessage } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useAcknowledge, useAcknowledgement } from '../api/acknowledgement.ts';

/**
 * /safety-notice/{token} (decision 084), public: the link in a clinic's mail. It shows the notice and
 * the clinic's affected machines, and records the acknowledgement once with the name typed. The
 * clinic portal (issue "clinics") will show the same notice to a signed-in clinic user.
 */
export function AcknowledgePage() {
  const { token = '' } = useParams();
  const query = useAcknowledgement(token);
  if (query.isPending)
    return (
      <CenteredCard title={safetyNoticeTexts.ackTitle}>
        <Spinner label="Loading the notice" />
      </CenteredCard>
    );
  if (!query.data)
    return (
      <CenteredCard title={safetyNoticeTexts.ackTitle}>
        <p role="alert">{safetyNoticeTexts.ackNotFound}</p>
      </CenteredCard>
    );
  return <NoticeForClinic token={token} notice={query.data} />;
}

function NoticeForClinic({ token, notice }: { token: string; notice: Acknowledgement }) {
  const acknowledge = useAcknowledge(token);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AcknowledgeBody>({ resolver: zodResolver(acknowledgeBodySchema), defaultValues: { name: '' } });
  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await acknowledge.mutateAsync(name);
    } catch (error) {
      setError('name', { message: errorMessage(error) });
    }
  });
  return (
    <CenteredCard title={`${safetyNoticeKindLabels[notice.kind]} ${notice.reference}`} className="text-start">
      <h2 className="h5">{notice.title}</h2>
      <p className="text-body-secondary">Sent {formatDateTime(notice.sentAt)}</p>
      <p>{notice.description}</p>
      <h2 className="h6">What to do</h2>
      <p>{notice.remedyText}</p>
      <h2 className="h6">{safetyNoticeTexts.ackMachines}</h2>
      <ul>
        {notice.machines.map((m) => (
          <li key={`${m.serialNumber}-${m.machineNumber}`}>
            Machine {m.machineNumber}, serial {m.serialNumber}
          </li>
        ))}
      </ul>
      {notice.acknowledgedAt ? (
        <p className="alert alert-success" role="status">
          {safetyNoticeTexts.ackDone(notice.acknowledgedBy ?? '', formatDateTime(notice.acknowledgedAt))}
        </p>
      ) : (
        <form noValidate onSubmit={onSubmit}>
          <p>{safetyNoticeTexts.ackIntro}</p>
          <FormField
            label={safetyNoticeTexts.ackNameLabel}
            hint={safetyNoticeTexts.ackNameHint}
            autoComplete="name"
            required
            error={errors.name?.message}
            {...register('name')}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={acknowledge.isPending}>
            {acknowledge.isPending ? safetyNoticeTexts.ackSubmitting : safetyNoticeTexts.ackSubmit}
          </button>
        </form>
      )}
    </CenteredCard>
  );
}
