/** The large tick or cross above a payment outcome; decorative, the heading says the same. */
export function OutcomeIcon({ outcome }: { outcome: 'success' | 'cancel' }) {
  const success = outcome === 'success';
  return (
    <div
      className={`d-flex justify-content-center mb-3 ${success ? 'text-success' : 'text-danger'}`}
      aria-hidden="true"
    >
      <svg
        width={56}
        height={56}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="12" r="10" />
        <path d={success ? 'M8 12l3 3 5-6' : 'M15 9l-6 6M9 9l6 6'} />
      </svg>
    </div>
  );
}
