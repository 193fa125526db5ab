import type { Rng } from './random.ts';

/** The shock-wave machines' models, as the app names the device in a treatment record. */
export const treatmentModels = ['ShockWave S1', 'ShockWave S2 Pro', 'RadialWave R5', 'FocusWave F3'];
/** Courses of treatment, as the app's plan field holds them. */
export const treatmentPlans = [
  'Plantar fasciitis, 5 sessions',
  'Tennis elbow, 4 sessions',
  'Achilles tendinopathy, 6 sessions',
  'Calcific shoulder, 3 sessions',
  'Patellar tendinopathy, 5 sessions',
  'Lower back pain, 6 sessions',
  'Hip bursitis, 4 sessions',
  'Myofascial trigger points, 3 sessions',
];

/**
 * One session on a machine: its model, how many minutes, the energy per pulse (joules per mm²) and
 * in total over the pulses given.
 */
export function fakeSession(rng: Rng) {
  const duration = rng.int(8, 40);
  const energy = rng.float(0.05, 0.45, 2);
  const pulses = rng.int(1500, 3000);
  return {
    model: rng.pick(treatmentModels),
    duration,
    energy,
    totalEnergyOutput: Number((energy * pulses).toFixed(1)),
  };
}
