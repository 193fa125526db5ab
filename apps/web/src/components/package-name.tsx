import { Fragment } from 'react';

/**
 * An Android package name (com.treatment.device) that may break after each dot when its column is
 * narrow, and nowhere else: cut with an ellipsis, two apps of one vendor would look the same.
 */
export function PackageName({ name }: { name: string }) {
  const parts = name.split('.');
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? '.' : null}
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
