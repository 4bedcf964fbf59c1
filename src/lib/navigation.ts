/** Navigation for code outside React (the HTTP client): main.tsx plugs in the router. */
let navigator: (path: string) => void = (path) => window.location.assign(path);

export function setNavigator(fn: (path: string) => void): void {
  navigator = fn;
}

export function navigateTo(path: string): void {
  navigator(path);
}
