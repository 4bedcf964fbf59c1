/** The password login and registration calls with their proof-of-work challenge, loaded on first need (the login screen's entry stays small). */
export const loadAuthCalls = () => import('./challenge.ts');
