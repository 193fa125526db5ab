import { useId, type ReactNode } from 'react';

/** A card that is a page section: a region named by its own h2, for screen readers' landmark lists. */
export function SectionCard({
  title,
  children,
  className = 'mt-4',
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  const heading = useId();
  return (
    <section className={`card shadow-sm ${className}`} aria-labelledby={heading}>
      <div className="card-body">
        <h2 id={heading} className="h5 mb-3">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
