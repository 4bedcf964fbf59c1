/** Every powerful browser feature off: the app uses none (clipboard writes need no permission). */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), bluetooth=(), serial=(), hid=()';
