/** This machine's own names (a URL's hostname, IPv6 in brackets): an address only this machine reaches. */
export const isLoopback = (hostname: string): boolean => /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i.test(hostname);
