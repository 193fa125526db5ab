import { z } from 'zod';
import { adminProfileSchema } from './auth.ts';
import { envelope } from './envelope.ts';
import { strictObject } from './fields.ts';

/** docs/product.md §5.2 (forgot password, OTP, reset password), §5.3 (change password), §5.4 (update profile) and §8. */
export const accountMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  otpRequired: 'OTP is required',
  otpFormat: 'OTP must be 6 digits',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  confirmPasswordRequired: 'Confirm password is required',
  passwordsMustMatch: 'Passwords must match',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  userNameRequired: 'User name is required',
  phoneRequired: 'Phone number is required',
  phoneDigits: 'Only digits are allowed',
  phoneTooShort: 'Phone number is too short',
  phoneTooLong: 'Phone number is too long',
  imageType: 'Only PNG and JPG images are allowed',

  /** docs/product.md §8, shown by the console. */
  forgotFailed: 'Enter a valid email address.',
  otpInvalid: 'Invalid OTP. Please try again.',
  otpResent: 'OTP resent to your email.',
  otpResendFailed: 'Failed to resend OTP.',
  resetFailed: 'Failed to reset password. Try again.',
  passwordChanged: 'Password changed successfully',
  profileUpdated: 'User profile updated successfully',
  profileUpdateFailed: 'Update failed',

  /** The server's own answers (the spec leaves them open). */
  otpSent: 'If an account exists for this email, an OTP has been sent to it.',
  otpVerified: 'OTP verified',
  otpResendTooSoon: 'Please wait 30 seconds before asking for another OTP.',
  resetTokenInvalid: 'This reset link is invalid or has expired. Please start again.',
  passwordReset: 'Your password has been reset. Please sign in.',
  currentPasswordWrong: 'Current password is incorrect',
  samePassword: 'The new password must be different from the current one',
  passwordTooCommon: 'Password is too common: it is on lists of leaked passwords. Choose another',
  userNameTaken: 'A user with this user name already exists',
  imageTooLarge: 'The image must be at most 2 MB',
  imageDamaged: 'The image file could not be read',
  imageDimensions: 'The image must be at most 10000 pixels wide and high, and 25 megapixels in all',
  imageNotFound: 'Image not found',
  formUnreadable: 'The form data could not be read',
} as const;

/** The OTP's rules, shared by the API and the console. */
export const otpLength = 6;
export const otpValidMinutes = 10;
export const otpMaxWrongTries = 5;
export const otpResendSeconds = 30;
export const profileImageMaxBytes = 2 * 1024 * 1024;
/** Pixel bounds checked from the header before decoding (a small file can declare a huge picture). */
export const profileImageLimits = { maxSide: 10_000, maxPixels: 25_000_000 } as const;
export const passwordMinLength = 6;

const email = z
  .string({ error: (i) => (i.input == null ? accountMessages.emailRequired : 'email must be text') })
  .trim()
  .min(1, accountMessages.emailRequired)
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email(accountMessages.emailInvalid));

const newPassword = (requiredMessage: string) =>
  z
    .string({ error: (i) => (i.input == null ? requiredMessage : 'password must be text') })
    .min(1, requiredMessage)
    .min(passwordMinLength, accountMessages.passwordTooShort)
    .max(256, 'Password must be at most 256 characters');

const otp = z
  .string({ error: (i) => (i.input == null ? accountMessages.otpRequired : 'otp must be text') })
  .trim()
  .min(1, accountMessages.otpRequired)
  .max(otpLength, accountMessages.otpFormat)
  .regex(/^\d{6}$/, accountMessages.otpFormat);

/** POST forgot-password and resend-otp. */
export const forgotPasswordBodySchema = strictObject({ email });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** POST verify-email. */
export const verifyOtpBodySchema = strictObject({ email, otp });
export type VerifyOtpBody = z.infer<typeof verifyOtpBodySchema>;
/** The /enter-otp form: only the OTP is typed; the email comes from navigation state. */
export const otpFormSchema = strictObject({ otp });
export type OtpForm = z.infer<typeof otpFormSchema>;

export const verifyOtpResponseSchema = envelope(z.object({ rememberToken: z.string(), email: z.string() }));

/** POST reset-password. */
export const resetPasswordBodySchema = strictObject({
  rememberToken: z
    .string({ error: accountMessages.resetTokenInvalid })
    .min(16, accountMessages.resetTokenInvalid)
    .max(128, accountMessages.resetTokenInvalid),
  password: newPassword(accountMessages.passwordRequired),
  email,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** The /reset-password/{token} form. */
export const resetPasswordFormSchema = strictObject({
  password: newPassword(accountMessages.passwordRequired),
  confirmPassword: z
    .string()
    .min(1, accountMessages.confirmPasswordRequired)
    .max(256, 'Confirm password must be at most 256 characters'),
}).refine((v) => v.password === v.confirmPassword, {
  message: accountMessages.passwordsMustMatch,
  path: ['confirmPassword'],
});
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** POST change-password (and its form). */
export const changePasswordBodySchema = strictObject({
  old_password: z
    .string({
      error: (i) => (i.input == null ? accountMessages.currentPasswordRequired : 'old_password must be text'),
    })
    .min(1, accountMessages.currentPasswordRequired)
    .max(256, 'Current password must be at most 256 characters'),
  new_password: newPassword(accountMessages.newPasswordRequired),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

const optionalName = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(100, `${label} must be at most 100 characters`)
    .optional()
    .transform((v) => (v ? v : null));

/**
 * PUT profile: the text fields of the multipart form. The email is read-only: accepted (bounded)
 * because a client may send the whole profile back, and ignored. Any other unknown field is refused.
 */
export const profileUpdateFieldsSchema = strictObject({
  email: z
    .string({ error: 'email must be text' })
    .max(254, 'Email must be at most 254 characters')
    .optional(),
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
  userName: z
    .string({ error: (i) => (i.input == null ? accountMessages.userNameRequired : 'userName must be text') })
    .trim()
    .min(1, accountMessages.userNameRequired)
    .max(100, 'User name must be at most 100 characters'),
  phone: z
    .string({ error: (i) => (i.input == null ? accountMessages.phoneRequired : 'phone must be text') })
    .trim()
    .min(1, accountMessages.phoneRequired)
    .regex(/^\d+$/, accountMessages.phoneDigits)
    .min(7, accountMessages.phoneTooShort)
    .max(15, accountMessages.phoneTooLong),
});
export type ProfileUpdateFields = z.output<typeof profileUpdateFieldsSchema>;

export const profileImageTypes = ['image/png', 'image/jpeg'] as const;
/** Client-side check of a picked file (the server decides by content). */
export const isAllowedImageFile = (file: { type: string; name: string }) =>
  file.type
    ? (profileImageTypes as readonly string[]).includes(file.type)
    : /\.(png|jpe?g)$/i.test(file.name);

export const profileUpdateResponseSchema = envelope(adminProfileSchema);
export const messageResponseSchema = envelope(z.null());
