import type { ReactNode } from 'react';

export type CenteredCardProps = { title: string; children?: ReactNode; className?: string };

/** A public page's card (password reset, checkout results) with the page's h1. */
export function CenteredCard({ title, children, className = '' }: CenteredCardProps) {
  return (
    <div className={`auth-card card shadow-sm ${className}`}>
      <div className="card-body p-4 p-sm-5">
        <h1 className="h3 mb-3 text-center">{title}</h1>
        {children}
      </div>
    </div>
  );
}
