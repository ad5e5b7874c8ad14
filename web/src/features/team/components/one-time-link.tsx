import type { MemberLinkDto } from '@domain/schemas/team.schema';
import { linkAddress } from '@/api/team';
import { useFormat } from '@/lib/format';
import { LINK_COPY_MESSAGES } from '@/lib/copy-text';
import { SecretOnce } from './secret-once';

/** A one-time link as it is shown once: the address, a copy button and when it stops working. */
export function OneTimeLink({ link, label }: { link: MemberLinkDto; label: string }) {
  const format = useFormat();
  return (
    <SecretOnce
      label={label}
      secret={linkAddress(link)}
      copyLabel="Copy link"
      {...LINK_COPY_MESSAGES}
      testId="one-time-link"
      note={`Works once, until ${format.dateTime(link.expiresAt)}. Only this page shows it: send it to the member yourself.`}
    />
  );
}
