/** The operator's support address: the support mailbox of the site's own domain. */
export function ContactEmail() {
  const address = `support@${window.location.hostname.replace(/^www\./, '')}`;
  return <a href={`mailto:${address}`}>{address}</a>;
}
