import { subscriptionTexts } from '@app/contract/subscriptions';
import { Icon } from '#web/components/base-icons.tsx';
import { notify } from '#web/lib/notify.ts';

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies the customer's payment link; where the clipboard is not allowed, shows the link to copy by hand. */
export function CopyLinkButton({ link, name }: { link: string; name: string }) {
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-primary d-inline-flex align-items-center"
      aria-label={`${subscriptionTexts.copyLink} for ${name}`}
      title={link}
      onClick={async () => {
        if (await copy(link)) notify.success(subscriptionTexts.linkCopied);
        else notify.info(link, { duration: 15_000 });
      }}
    >
      <Icon size={16}>
        <rect x="9" y="9" width="13" height="13" rx="2" />
        <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
      </Icon>
    </button>
  );
}
