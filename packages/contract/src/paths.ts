/** API paths exactly as docs/product.md §7.2 lists them (typos included: existing clients use them). */
export const apiPaths = {
  health: '/api/health',
  login: '/api/v1/admin/login',
  logout: '/api/v1/admin/logout',
  // Ours: the session's clock; a GET also counts as activity ("Stay signed in").
  session: '/api/v1/admin/session',
  // Ours: two-step sign-in. The login/ ones take the short-lived challenge token, not a session.
  loginMfa: '/api/v1/admin/login/mfa',
  loginMfaSetup: '/api/v1/admin/login/mfa/setup',
  loginMfaConfirm: '/api/v1/admin/login/mfa/confirm',
  profileMfa: '/api/v1/admin/profile/mfa',
  profileMfaSetup: '/api/v1/admin/profile/mfa/setup',
  profileMfaConfirm: '/api/v1/admin/profile/mfa/confirm',
  profileMfaDisable: '/api/v1/admin/profile/mfa/disable',
  profileMfaRecoveryCodes: '/api/v1/admin/profile/mfa/recovery-codes',
  /** Ours (decision 046): confirm the password (and code) before a dangerous action. */
  profileStepUp: '/api/v1/admin/profile/step-up',
  profile: '/api/v1/admin/profile',
  // Ours (not in the spec): the avatar file; public, the name is unguessable.
  profileImage: (name: string) => `/api/v1/admin/profile/image/${name}`,
  forgotPassword: '/api/v1/admin/forgot-password',
  verifyEmail: '/api/v1/admin/verify-email',
  resendOtp: '/api/v1/admin/resend-otp',
  resetPassword: '/api/v1/admin/reset-password',
  changePassword: '/api/v1/admin/change-password',
  roles: '/api/v1/admin/roles',
  rolesAll: '/api/v1/admin/roles/all',
  // Ours (issue 17): the roles list as a CSV file, streamed.
  rolesExport: '/api/v1/admin/roles/export',
  role: (id: string) => `/api/v1/admin/roles/${id}`,
  machines: '/api/v1/admin/machine',
  machineAdd: '/api/v1/admin/machine/add',
  machine: (id: string) => `/api/v1/admin/machine/${id}`,
  /** Ours (issue 17, decision 055): Activate or Deactivate many devices at once. */
  machineBulkStatus: '/api/v1/admin/machine/bulk-status',
  patientsAll: '/api/v1/admin/patient/all',
  patient: (id: string) => `/api/v1/admin/patient/${id}`,
  doctorsAll: '/api/v1/admin/doctor/all',
  doctor: (id: string) => `/api/v1/admin/doctor/${id}`,
  /** Ours (decision 045): a record's masked contact data, shown once with a reason; its access history. */
  patientReveal: (id: string) => `/api/v1/admin/patient/${id}/reveal`,
  doctorReveal: (id: string) => `/api/v1/admin/doctor/${id}/reveal`,
  patientAccessHistory: (id: string) => `/api/v1/admin/patient/${id}/access-history`,
  doctorAccessHistory: (id: string) => `/api/v1/admin/doctor/${id}/access-history`,
  techniciansAll: '/api/v1/admin/technicians/all',
  // Ours (issue 17): each device-user list as a CSV file, streamed (contact data masked unless revealed).
  doctorsExport: '/api/v1/admin/doctor/export',
  patientsExport: '/api/v1/admin/patient/export',
  techniciansExport: '/api/v1/admin/technicians/export',
  technician: (id: string) => `/api/v1/admin/technicians/${id}`,
  accessLogsAll: '/api/v1/admin/access-logs/all',
  errorLogsAll: '/api/v1/admin/error-logs/all',
  // Ours (issue 17): each log list as a CSV file, streamed.
  accessLogsExport: '/api/v1/admin/access-logs/export',
  errorLogsExport: '/api/v1/admin/error-logs/export',
  usersAll: '/api/v1/admin/users/all',
  // Ours (issue 17): the users list as a CSV file, streamed.
  usersExport: '/api/v1/admin/users/export',
  users: '/api/v1/admin/users/',
  user: (id: string) => `/api/v1/admin/users/${id}`,
  /** Ours (issue 17, decision 055): delete many users at once. */
  usersBulkDelete: '/api/v1/admin/users/bulk-delete',
  /** Another user's two-step sign-in: status, and the reset an admin does for a lost authenticator. */
  userMfa: (id: string) => `/api/v1/admin/users/${id}/mfa`,
  userMfaReset: (id: string) => `/api/v1/admin/users/${id}/mfa/reset`,
  treatmentsAll: '/api/v1/admin/treatement-records/all',
  // Ours (issue 17): the treatment list as a CSV file, streamed (decision 058).
  treatmentsExport: '/api/v1/admin/treatement-records/export',
  // Ours (issue 35): Treatment Records' facets.
  treatmentsFacets: '/api/v1/admin/treatement-records/facets',
  treatment: (id: string) => `/api/v1/admin/treatement-records/${id}`,
  subscriptionsAll: '/api/v1/admin/subscrption/all',
  subscriptionAdd: '/api/v1/admin/subscrption/add',
  // Ours (issue 17): the filtered list as a CSV file, streamed.
  subscriptionExport: '/api/v1/admin/subscrption/export',
  subscriptionDetail: (id: string) => `/api/v1/admin/subscrption/detail/${id}`,
  checkout: '/api/v1/admin/subscription/checkout',
  // Ours, in the same style: the demo provider's card step, reconciliation, Stripe's webhook.
  subscriptionDemoPay: '/api/v1/admin/subscription/demo-pay',
  subscriptionReconcile: '/api/v1/admin/subscription/reconcile',
  subscriptionWebhook: '/api/v1/admin/subscription/webhook',
  systemUpdates: '/api/v1/admin/system/updates',
  systemUpdatesAll: '/api/v1/admin/system/updates/all',
  // Ours (issue 17): App Update as a CSV file, streamed.
  systemUpdatesExport: '/api/v1/admin/system/updates/export',
  // Ours (decision 051): pause, resume, advance, halt or withdraw a release's staged rollout.
  appUpdateRollout: (id: string) => `/api/v1/admin/system/updates/${id}/rollout`,
  // Ours (not in the spec): the public APK download and the mobile app's update check.
  appUpdateApk: (id: string) => `/api/v1/app/updates/${id}/apk`,
  appUpdateLatest: '/api/v1/app/updates/latest',
  // Ours: the machines' app (docs/device-api.md). Device credential on each; X-App-Session where a person acts.
  appEnrol: '/api/v1/app/enrol',
  appHeartbeat: '/api/v1/app/heartbeat',
  appLogin: '/api/v1/app/login',
  appTokenRefresh: '/api/v1/app/token/refresh',
  appLogout: '/api/v1/app/logout',
  appMe: '/api/v1/app/me',
  appDoctors: '/api/v1/app/doctors',
  appPatients: '/api/v1/app/patients',
  appTreatments: '/api/v1/app/treatments',
  appAccessLogs: '/api/v1/app/access-logs',
  appErrorLogs: '/api/v1/app/error-logs',
  // Ours: the console's side of enrolment, and the machines a technician (a user of an app role) is assigned to.
  machineEnrolment: (id: string) => `/api/v1/admin/machine/${id}/enrolment`,
  machineEnrolmentCode: (id: string) => `/api/v1/admin/machine/${id}/enrolment/code`,
  machineEnrolmentRevoke: (id: string) => `/api/v1/admin/machine/${id}/enrolment/revoke`,
  // Ours: the app versions a machine has reported, each with when it was first seen.
  machineAppVersions: (id: string) => `/api/v1/admin/machine/${id}/app-versions`,
  // Ours (issue 17, decisions 053 and 054): the signed-in admin's list preferences and colour mode, and
  // the saved views of a list.
  preferences: '/api/v1/admin/preferences',
  listPreferences: (list: string) => `/api/v1/admin/preferences/lists/${list}`,
  colorMode: '/api/v1/admin/preferences/color-mode',
  savedViews: '/api/v1/admin/views',
  savedView: (id: string) => `/api/v1/admin/views/${id}`,
  // Ours: the fleet map, the device list's filters clustered by place (issue 16).
  machineMap: '/api/v1/admin/machine-map',
  // Ours (issue 17): the device list's facet values with their counts.
  machineFacets: '/api/v1/admin/machine-facets',
  // Ours (issue 17): the filtered device list as a CSV file, streamed.
  machineExport: '/api/v1/admin/machine-export',
  userMachines: (id: string) => `/api/v1/admin/users/${id}/machines`,
  // Ours (decision 049): device health alarms, the bell's count, and the signed-in admin's daily digest.
  alarms: '/api/v1/admin/alarms',
  alarmsCount: '/api/v1/admin/alarms/count',
  alarmAcknowledge: (id: string) => `/api/v1/admin/alarms/${id}/acknowledge`,
  alarmResolve: (id: string) => `/api/v1/admin/alarms/${id}/resolve`,
  profileAlarmDigest: '/api/v1/admin/profile/alarm-digest',
  // Ours (decision 050): the dashboard's Operations figures, each group by its permission.
  dashboardOperations: '/api/v1/admin/dashboard/operations',
} as const;
