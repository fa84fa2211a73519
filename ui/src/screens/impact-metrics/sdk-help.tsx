// Written for this page: the SDK's calls by their documented names, with a metric of our own.
const EXAMPLE = `// Once, where the SDK is set up:
unleash.impactMetrics.defineCounter('checkout_errors', 'Checkouts that failed');
unleash.impactMetrics.defineGauge('cart_value', 'Value of the cart at checkout');

// Where it happens:
unleash.impactMetrics.incrementCounter('checkout_errors');
unleash.impactMetrics.updateGauge('cart_value', cart.total);`;

/** What to do when no SDK has sent an impact metric yet: where they come from, and a first one. */
export function SdkHelp() {
  return (
    <section class="card impact-help" aria-labelledby="impact-help-title">
      <h2 id="impact-help-title">No impact metrics yet</h2>
      <p>
        Impact metrics are numbers your application counts itself, such as failed checkouts or the time a page
        takes, charted beside your flags so you can see what a release changed. An SDK defines them, updates
        them as things happen, and sends them with its usage metrics; Flagpole keeps a value per minute.
      </p>
      <p>
        With a recent Node SDK (unleash-client), define a counter, a gauge or a histogram once, then count,
        set or observe it:
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must reach it to scroll it (WCAG 2.1.1) */}
      <pre tabIndex={0}>
        <code>{EXAMPLE}</code>
      </pre>
      <p class="muted">
        Histograms work the same way with <code>defineHistogram</code> and <code>observeHistogram</code>. Each
        sample carries the SDK's app name and environment as labels, to filter charts by. A metric appears
        here soon after the first report that carries it.
      </p>
    </section>
  );
}
