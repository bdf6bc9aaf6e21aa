/**
 * A minimal Prometheus registry writing the text exposition format (version 0.0.4):
 * counters, histograms and gauges read at scrape time. Label values come from a closed set
 * chosen by the callers (route patterns, status classes), never from raw input.
 */
type Labels = Record<string, string>;

interface Metric {
  render(): string;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
}

// Runs on every request: plain code-unit order and separators that cannot occur in a label
// (\u0000, \u0001), not localeCompare and JSON, which were a visible share of a cached read.
function keyOf(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length > 1) names.sort();
  let key = '';
  for (const name of names) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
}

export class Counter implements Metric {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  private readonly name: string;
  private readonly help: string;
  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }
  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }
  render(): string {
    let text = header(this.name, this.help, 'counter');
    for (const { labels, value } of this.values.values()) text += `${this.name}${labelText(labels)} ${value}\n`;
    return text;
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  private readonly name: string;
  private readonly help: string;
  private readonly buckets: number[];
  constructor(name: string, help: string, buckets: number[]) {
    this.name = name;
    this.help = help;
    this.buckets = [...buckets].sort((a, b) => a - b);
  }
  observe(labels: Labels, value: number): void {
    const key = keyOf(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    // Counts per bucket are cumulative in the exposition; stored per bucket here.
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index !== -1) entry.counts[index]! += 1;
    entry.sum += value;
    entry.count += 1;
  }
  render(): string {
    let text = header(this.name, this.help, 'histogram');
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        text += `${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${cumulative}\n`;
      });
      text += `${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}\n`;
      text += `${this.name}_sum${labelText(labels)} ${sum}\n`;
      text += `${this.name}_count${labelText(labels)} ${count}\n`;
    }
    return text;
  }
}

/** A gauge whose samples are read when scraped. */
export class Gauge implements Metric {
  private readonly name: string;
  private readonly help: string;
  private readonly collect: () => { labels: Labels; value: number }[];
  constructor(name: string, help: string, collect: () => { labels: Labels; value: number }[]) {
    this.name = name;
    this.help = help;
    this.collect = collect;
  }
  render(): string {
    const samples = this.collect();
    if (samples.length === 0) return '';
    let text = header(this.name, this.help, 'gauge');
    for (const { labels, value } of samples) text += `${this.name}${labelText(labels)} ${value}\n`;
    return text;
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];
  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }
  render(): string {
    return this.metrics.map((metric) => metric.render()).join('');
  }
}
