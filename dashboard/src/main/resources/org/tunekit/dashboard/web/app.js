// Tunekit's dashboard: one page, routes in the address's #fragment, data from /api, charts by ECharts.
// Every text from an experiment is put in the page as text (textContent), never as markup.
'use strict';

const TOKEN = document.querySelector('meta[name="tunekit-token"]').content;
const STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'EARLY_STOPPED', 'USER_CANCELED', 'LOST'];
const STATUS_COLOR = { RUNNING: '#2563eb', SUCCEEDED: '#15803d', FAILED: '#b91c1c', EARLY_STOPPED: '#b45309', USER_CANCELED: '#7c3aed', LOST: '#4b5563' };
const ROW_HEIGHT = 30;
const POLL_MS = 1000;

// ---------- small helpers ----------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'style') el.style.cssText = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function fmt(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    const a = Math.abs(v);
    if (a !== 0 && (a < 1e-4 || a >= 1e7)) return v.toExponential(4);
    return String(Number(v.toPrecision(6)));
  }
  if (typeof v === 'object') {
    if (v._name !== undefined) {
      const subs = Object.entries(v).filter(([k]) => k !== '_name').map(([k, x]) => k + '=' + fmt(x));
      return subs.length ? v._name + '(' + subs.join(', ') + ')' : String(v._name);
    }
    return JSON.stringify(v);
  }
  return String(v);
}

function duration(ms) {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return (ms < 10000 ? (ms / 1000).toFixed(1) : s) + ' s';
  const m = Math.floor(s / 60), r = s % 60;
  if (m < 60) return m + ' min ' + r + ' s';
  const hh = Math.floor(m / 60);
  if (hh < 48) return hh + ' h ' + (m % 60) + ' min';
  return Math.floor(hh / 24) + ' d ' + (hh % 24) + ' h';
}

function when(ms) {
  return ms ? new Date(ms).toLocaleString() : '';
}

function statusPill(s) {
  return h('span', { class: 'status ' + s }, s);
}

function toast(text, bad) {
  const t = document.getElementById('toast');
  t.textContent = text;
  t.className = 'show' + (bad ? ' bad' : '');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ''; }, bad ? 6000 : 3500);
}

async function getJson(url) {
  const r = await fetch(url, { headers: { 'Accept': 'application/json' } });
  const body = await r.json().catch(() => ({ error: 'the dashboard answered ' + r.status }));
  if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
  return body;
}

async function steer(kind, payload) {
  const r = await fetch('/api/experiments/' + encodeURIComponent(S.id) + '/requests', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Tunekit-Token': TOKEN },
    body: JSON.stringify({ kind, payload }),
  });
  const body = await r.json().catch(() => ({ error: 'the dashboard answered ' + r.status }));
  if (r.status === 200) toast(body.answer || 'done');
  else if (r.status === 202) toast(body.answer, false);
  else toast((r.status === 409 ? 'Refused: ' : '') + (body.answer || body.error || ('HTTP ' + r.status)), true);
  S.lastPoll = 0;
  poll();
  return r.status === 200;
}

// ---------- state of the experiment shown ----------

const S = {
  id: null, revision: 0, overview: null, trials: new Map(), front: [], version: 0,
  sort: { key: 'seq', up: true }, filter: { statuses: new Set(STATUSES), text: '', min: '', max: '' },
  hidden: new Set(), selected: new Set(), polling: null, lastOk: 0,
};
let charts = [];
let view = null; // { render(changed) } of the page shown

function resetExperiment(id) {
  S.id = id; S.revision = 0; S.overview = null; S.trials = new Map(); S.front = []; S.version = 0; S.selected = new Set();
}

async function poll() {
  if (!S.id) return;
  const id = S.id;
  try {
    const d = await getJson('/api/experiments/' + encodeURIComponent(id) + '/state?revision=' + S.revision);
    if (id !== S.id) return;
    S.lastOk = Date.now();
    if (d.revision !== S.revision) {
      if (d.full) S.trials = new Map();
      if (d.overview) S.overview = d.overview;
      for (const t of d.trials || []) S.trials.set(t.job, t);
      if (d.front) S.front = d.front;
      S.revision = d.revision;
      S.version++;
      if (view && view.render) view.render(true);
    }
    live();
  } catch (e) {
    live(e.message);
  }
}

function live(error) {
  const el = document.getElementById('live');
  if (error) { el.textContent = 'not updated: ' + error; el.className = 'stale'; return; }
  const o = S.overview;
  el.className = '';
  el.textContent = o ? (o.running ? '● live' : 'not running') + ' · ' + new Date(S.lastOk).toLocaleTimeString() : '';
}

function startPolling() {
  stopPolling();
  poll();
  S.polling = setInterval(poll, POLL_MS);
}

function stopPolling() {
  if (S.polling) clearInterval(S.polling);
  S.polling = null;
}

// ---------- derived values ----------

function space() { return (S.overview && S.overview.searchSpace) || {}; }
function paramNames() {
  const names = Object.keys(space());
  for (const t of S.trials.values()) for (const k of Object.keys(t.params || {})) if (!names.includes(k)) names.push(k);
  return names;
}
function objectives() { return (S.overview && S.overview.objectives) || []; }
function multi() { return objectives().length >= 2; }
// as the runner ranks (TrialStatus.ranked): every final value but a lost trial's, whose parameters ran again
function ranked(t) { return t.status !== 'LOST' && typeof t.value === 'number'; }
function better(a, b) { return S.overview && S.overview.maximize ? a > b : a < b; }
function sortedTrials() { return [...S.trials.values()].sort((a, b) => a.seq - b.seq); }
function bestTrial() {
  let best = null;
  for (const t of S.trials.values()) if (ranked(t) && (!best || better(t.value, best.value))) best = t;
  return best;
}
function objectiveValue(t, o) {
  const m = t.metric;
  if (m && typeof m === 'object' && typeof m[o.metric] === 'number') return m[o.metric];
  return null;
}
function paramValue(t, name) {
  const v = t.params ? t.params[name] : undefined;
  if (v && typeof v === 'object' && v._name !== undefined) return v._name;
  return v;
}
function isChoice(name) { const s = space()[name]; return s && s._type === 'choice'; }
function isLog(name) { const s = space()[name]; return s && /^q?log/.test(s._type || ''); }
function choiceLabels(name) {
  const s = space()[name];
  const out = [];
  for (const v of (s && s._value) || []) out.push(fmt(v && typeof v === 'object' && v._name !== undefined ? v._name : v));
  for (const t of S.trials.values()) { const l = fmt(paramValue(t, name)); if (l !== '' && !out.includes(l)) out.push(l); }
  return out;
}
function durationOf(t) { return t.start ? (t.end || Date.now()) - t.start : null; }

// ---------- routing ----------

function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, queryText] = hash.split('?');
  const query = new URLSearchParams(queryText || '');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  disposeCharts();
  view = null;
  const main = document.getElementById('main');
  main.replaceChildren();
  if (parts[0] !== 'e' || !parts[1]) {
    stopPolling();
    S.id = null;
    tabs(null);
    document.getElementById('crumb').textContent = 'Experiments';
    view = experimentsPage(main);
    return;
  }
  if (S.id !== parts[1]) { resetExperiment(parts[1]); startPolling(); } else if (!S.polling) startPolling();
  const tab = parts[2] || 'overview';
  tabs(tab);
  if (tab === 't' && parts[3]) view = trialPage(main, parts[3]);
  else if (tab === 'trials') view = trialsPage(main);
  else if (tab === 'charts') view = chartsPage(main);
  else if (tab === 'compare') view = comparePage(main, (query.get('jobs') || '').split(',').filter(Boolean));
  else view = overviewPage(main);
  if (S.overview && view.render) view.render(false);
}

function tabs(on) {
  const nav = document.getElementById('tabs');
  nav.replaceChildren();
  if (!S.id) return;
  const base = '#/e/' + encodeURIComponent(S.id);
  for (const [key, label, href] of [['overview', 'Overview', base], ['trials', 'Trials', base + '/trials'], ['charts', 'Charts', base + '/charts'],
    ['compare', 'Compare', base + '/compare?jobs=' + [...S.selected].join(',')]]) {
    nav.append(h('a', { href, class: on === key ? 'on' : null, id: 'tab-' + key }, label));
  }
  const o = S.overview;
  document.getElementById('crumb').textContent = (o && o.name ? o.name + ' · ' : '') + S.id;
}

window.addEventListener('hashchange', route);
window.addEventListener('resize', () => charts.forEach(c => c.resize()));

// ---------- charts ----------

function chart(el) {
  const c = echarts.init(el, null, { renderer: 'canvas' });
  charts.push(c);
  // a panel's width is known only once the grid holds all its panels, and changes with the window
  const watch = new ResizeObserver(() => { if (!c.isDisposed()) c.resize(); });
  watch.observe(el);
  c.__watch = watch;
  return c;
}

function disposeCharts() {
  charts.forEach(c => { c.__watch.disconnect(); c.dispose(); });
  charts = [];
}

function valueName() {
  return S.overview && S.overview.maximize ? 'value (maximised)' : 'value (minimised)';
}

function valueOverTrials(c) {
  const series = [];
  const trials = sortedTrials();
  for (const s of STATUSES) {
    const pts = trials.filter(t => t.status === s && typeof t.value === 'number').map(t => ({ value: [t.seq, t.value], job: t.job }));
    if (pts.length) series.push({ name: s, type: 'scatter', symbolSize: 6, itemStyle: { color: STATUS_COLOR[s] }, data: pts, large: pts.length > 2000 });
  }
  const best = [];
  let b = null;
  for (const t of trials) {
    if (ranked(t) && (b === null || better(t.value, b))) b = t.value;
    if (b !== null) best.push([t.seq, b]);
  }
  series.push({ name: 'best so far', type: 'line', step: 'end', symbol: 'none', itemStyle: { color: '#111827' }, lineStyle: { color: '#111827', width: 2 }, data: best });
  c.setOption({
    animation: false, legend: { top: 0 }, grid: { left: 60, right: 20, top: 36, bottom: 40 },
    tooltip: { trigger: 'item', formatter: p => p.data && p.data.job ? 'trial ' + p.data.value[0] + ' (' + p.data.job + ')<br>' + fmt(p.data.value[1]) : fmt(p.value[1]) },
    xAxis: { type: 'value', name: 'trial', nameLocation: 'middle', nameGap: 25, minInterval: 1 },
    yAxis: { type: 'value', name: valueName(), scale: true },
    dataZoom: [{ type: 'inside' }],
    series,
  }, true);
  c.off('click');
  c.on('click', p => { if (p.data && p.data.job) location.hash = '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(p.data.job); });
}

async function intermediateCurves(c, note) {
  const withSteps = sortedTrials().filter(t => t.steps > 0);
  // the most recent 150 and the 50 best: enough to see, not so many that the chart stalls
  const recent = withSteps.slice(-150);
  const best = withSteps.filter(ranked).sort((a, b) => (better(a.value, b.value) ? -1 : 1)).slice(0, 50);
  const shown = [...new Map([...best, ...recent].map(t => [t.job, t])).values()];
  if (!shown.length) { c.setOption({ title: { text: S.overview.running ? 'No intermediate results yet' : 'No trial reported intermediate results', left: 'center', top: 'middle', textStyle: { color: '#6b7480', fontSize: 14 } } }, true); return; }
  const d = await getJson('/api/experiments/' + encodeURIComponent(S.id) + '/intermediate?jobs=' + shown.map(t => encodeURIComponent(t.job)).join(','));
  const series = shown.filter(t => d.curves[t.job]).map(t => {
    const stopped = t.status === 'EARLY_STOPPED';
    const pts = d.curves[t.job].filter(p => typeof p[1] === 'number');
    return {
      name: t.job, type: 'line', showSymbol: false, data: pts, emphasis: { focus: 'series' },
      lineStyle: { width: 1.2, type: stopped ? 'dashed' : 'solid', color: stopped ? '#b45309' : t.status === 'RUNNING' ? '#2563eb' : '#64748b', opacity: 0.8 },
      markPoint: stopped && pts.length ? { symbol: 'pin', symbolSize: 22, itemStyle: { color: '#b45309' }, label: { show: false }, data: [{ coord: pts[pts.length - 1] }] } : undefined,
    };
  });
  c.setOption({
    animation: false, grid: { left: 60, right: 20, top: 36, bottom: 40 },
    tooltip: { trigger: 'item', formatter: p => 'trial ' + p.seriesName + '<br>step ' + (p.value ? p.value[0] : '') + ': ' + fmt(p.value ? p.value[1] : null) },
    xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 25, minInterval: 1 },
    yAxis: { type: 'value', name: 'intermediate', scale: true }, dataZoom: [{ type: 'inside' }], series,
  }, true);
  c.off('click');
  c.on('click', p => { location.hash = '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(p.seriesName); });
  if (note) note.textContent = shown.length + ' of ' + withSteps.length + ' trials with intermediate results (the 50 best and the 150 latest); dashed with a pin: stopped early by the assessor.';
}

function axisFor(name) {
  if (isChoice(name)) return { type: 'category', data: choiceLabels(name) };
  return { type: isLog(name) ? 'log' : 'value', scale: true };
}

function axisValue(t, name) {
  const v = paramValue(t, name);
  return isChoice(name) ? fmt(v) : v;
}

function parallel(c, onBrush) {
  const names = paramNames();
  const trials = sortedTrials().filter(t => typeof t.value === 'number');
  const axes = names.map((n, i) => Object.assign({ dim: i, name: n }, axisFor(n)));
  axes.push({ dim: names.length, name: 'value', type: 'value', scale: true });
  const data = trials.map(t => ({ value: [...names.map(n => axisValue(t, n)), t.value], job: t.job }));
  const values = trials.map(t => t.value);
  c.setOption({
    animation: false,
    parallelAxis: axes,
    parallel: { left: 60, right: 90, top: 40, bottom: 30, parallelAxisDefault: { nameLocation: 'end', nameGap: 12, z: 10,
      axisLabel: { hideOverlap: true, backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3], borderRadius: 2 } } },
    visualMap: values.length ? { show: true, min: Math.min(...values), max: Math.max(...values), dimension: names.length, right: 4, top: 'middle', itemWidth: 12, calculable: true, formatter: v => String(Number(v.toPrecision(3))),
      inRange: { color: S.overview.maximize ? ['#cbd5e1', '#1d4ed8'] : ['#1d4ed8', '#cbd5e1'] }, text: ['value', ''] } : undefined,
    series: [{ type: 'parallel', lineStyle: { width: 1, opacity: 0.55 }, data, progressive: 1000, inactiveOpacity: 0.04, activeOpacity: 0.9 }],
  }, true);
  c.off('axisareaselected');
  c.on('axisareaselected', () => {
    const series = c.getModel().getSeries()[0];
    const indices = series.getRawIndicesByActiveState('active');
    const all = indices.length === data.length;
    onBrush(all ? null : indices.map(i => data[i].job));
  });
}

let sliceCharts = [];

function slices(container) {
  sliceCharts.forEach(c => { c.__watch.disconnect(); c.dispose(); });
  charts = charts.filter(c => !sliceCharts.includes(c));
  sliceCharts = [];
  container.replaceChildren();
  const trials = sortedTrials().filter(t => typeof t.value === 'number');
  for (const name of paramNames()) {
    const el = h('div', { class: 'chart small' });
    container.append(h('div', { class: 'panel' }, h('h2', {}, name), el));
    const c = chart(el);
    sliceCharts.push(c);
    const series = STATUSES.map(s => ({
      name: s, type: 'scatter', symbolSize: 6, itemStyle: { color: STATUS_COLOR[s], opacity: 0.75 },
      data: trials.filter(t => t.status === s).map(t => ({ value: [axisValue(t, name), t.value], job: t.job })),
    })).filter(s => s.data.length);
    c.setOption({
      animation: false, grid: { left: 60, right: 20, top: 14, bottom: 30 },
      tooltip: { trigger: 'item', formatter: p => p.data.job + '<br>' + name + ' = ' + fmt(p.data.value[0]) + '<br>value ' + fmt(p.data.value[1]) },
      xAxis: Object.assign({ name, nameLocation: 'middle', nameGap: 22 }, axisFor(name)), yAxis: { type: 'value', scale: true }, series,
    }, true);
    c.on('click', p => { location.hash = '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(p.data.job); });
  }
}

async function importance(c, note) {
  const d = await getJson('/api/experiments/' + encodeURIComponent(S.id) + '/importance');
  const entries = Object.entries(d.importance || {}).reverse();
  if (!entries.length) {
    c.setOption({ title: { text: d.note || 'No importance yet', left: 'center', top: 'middle', textStyle: { color: '#6b7480', fontSize: 13 } } }, true);
  } else {
    c.setOption({
      animation: false, grid: { left: 140, right: 50, top: 10, bottom: 30 }, tooltip: { trigger: 'item', formatter: p => p.name + ': ' + fmt(p.value) },
      xAxis: { type: 'value', max: 1 }, yAxis: { type: 'category', data: entries.map(e => e[0]) },
      series: [{ type: 'bar', data: entries.map(e => e[1]), itemStyle: { color: '#2563eb' }, label: { show: true, position: 'right', formatter: p => fmt(p.value) } }],
    }, true);
  }
  if (note) note.textContent = (d.method || '') + ' over ' + d.trials + ' trials with a final value.';
}

function durations(c) {
  const trials = sortedTrials().filter(t => t.start);
  const series = STATUSES.map(s => ({
    name: s, type: 'scatter', symbolSize: 6, itemStyle: { color: STATUS_COLOR[s] },
    data: trials.filter(t => t.status === s).map(t => ({ value: [t.seq, durationOf(t) / 1000], job: t.job })),
  })).filter(s => s.data.length);
  c.setOption({
    animation: false, legend: { top: 0 }, grid: { left: 60, right: 20, top: 36, bottom: 40 },
    tooltip: { trigger: 'item', formatter: p => p.data.job + ': ' + duration(p.data.value[1] * 1000) },
    xAxis: { type: 'value', name: 'trial', nameLocation: 'middle', nameGap: 25, minInterval: 1 }, yAxis: { type: 'value', name: 'seconds' }, series,
  }, true);
}

function pareto(c, i, j) {
  const objs = objectives();
  const a = objs[i], b = objs[j];
  const front = new Set(S.front);
  const pts = sortedTrials().map(t => ({ t, x: objectiveValue(t, a), y: objectiveValue(t, b) })).filter(p => p.x !== null && p.y !== null);
  const others = pts.filter(p => !front.has(p.t.job)).map(p => ({ value: [p.x, p.y], job: p.t.job }));
  const onFront = pts.filter(p => front.has(p.t.job)).sort((p, q) => p.x - q.x).map(p => ({ value: [p.x, p.y], job: p.t.job }));
  c.setOption({
    animation: false, legend: { top: 0 }, grid: { left: 70, right: 20, top: 36, bottom: 44 },
    tooltip: { trigger: 'item', formatter: p => p.data.job + '<br>' + a.metric + ' ' + fmt(p.data.value[0]) + '<br>' + b.metric + ' ' + fmt(p.data.value[1]) },
    xAxis: { type: 'value', name: a.metric + ' (' + (a.mode || 'minimize') + ')', nameLocation: 'middle', nameGap: 26, scale: true },
    yAxis: { type: 'value', name: b.metric + ' (' + (b.mode || 'minimize') + ')', scale: true },
    series: [
      { name: 'trials', type: 'scatter', symbolSize: 6, itemStyle: { color: '#94a3b8' }, data: others },
      { name: 'Pareto front', type: 'line', symbolSize: 9, lineStyle: { type: 'dashed', color: '#dc2626' }, itemStyle: { color: '#dc2626' }, data: onFront,
        step: objs.length === 2 ? (a.mode === b.mode ? 'end' : 'start') : false },
    ],
  }, true);
  c.off('click');
  c.on('click', p => { if (p.data && p.data.job) location.hash = '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(p.data.job); });
}

// ---------- pages ----------

function experimentsPage(main) {
  const body = h('tbody');
  main.append(h('h1', {}, 'Experiments'), h('div', { class: 'panel' }, h('table', { id: 'experiments' },
    h('thead', {}, h('tr', {}, ['Id', 'Name', 'Status', 'Tuner', 'Trials', 'Best', 'Started', 'Duration'].map(x => h('th', {}, x)))), body)));
  let timer = null;
  async function load() {
    try {
      const list = await getJson('/api/experiments');
      body.replaceChildren(...list.map(e => h('tr', {},
        h('td', {}, h('a', { href: '#/e/' + encodeURIComponent(e.id) }, e.id)), h('td', {}, e.name || ''),
        h('td', {}, statusPill(e.running ? 'RUNNING' : e.status)), h('td', {}, e.tuner || ''),
        h('td', { class: 'num' }, e.trials + (e.maxTrialNumber > 0 ? ' / ' + e.maxTrialNumber : '')),
        h('td', { class: 'num' }, e.objectives >= 2 ? e.objectives + ' objectives' : fmt(e.best)),
        h('td', {}, when(e.started)), h('td', {}, duration((e.ended || (e.running ? Date.now() : e.started)) - e.started)))));
      if (!list.length) body.append(h('tr', {}, h('td', { colspan: 8, class: 'empty' }, 'No experiments yet: tunekit run config.yml')));
      live();
    } catch (err) { live(err.message); }
  }
  load();
  timer = setInterval(load, 3000);
  window.addEventListener('hashchange', () => clearInterval(timer), { once: true });
  return {};
}

function overviewPage(main) {
  const cards = h('div', { class: 'cards', id: 'cards' });
  const chartEl = h('div', { class: 'chart' });
  const best = h('div', { id: 'best' });
  const controls = h('div', { id: 'controls' });
  const config = h('div');
  main.append(cards, h('div', { class: 'grid2' },
    h('div', { class: 'panel' }, h('h2', {}, 'Value over trials'), chartEl),
    h('div', { class: 'panel' }, h('h2', { id: 'best-title' }, 'Best trial'), best)),
  h('div', { class: 'grid2' }, h('div', { class: 'panel' }, h('h2', {}, 'Steer'), controls), h('div', { class: 'panel' }, h('h2', {}, 'Config and search space'), config)));
  const c = chart(chartEl);
  let controlsBuilt = false;
  let configShown = false;
  return {
    render() {
      const o = S.overview;
      if (!o) return;
      tabs('overview');
      const trials = sortedTrials();
      const count = s => trials.filter(t => t.status === s).length;
      const ended = trials.length - count('RUNNING');
      const elapsed = (o.ended && !o.running ? o.ended : Date.now()) - o.started;
      const b = bestTrial();
      cards.replaceChildren(
        card('Status', statusPill(o.running ? 'RUNNING' : o.status), o.running ? 'a runner is on it' : 'no runner: tunekit run --resume ' + o.id),
        card('Trials', trials.length + (o.maxTrialNumber > 0 ? ' / ' + o.maxTrialNumber : ''),
          STATUSES.filter(x => count(x) > 0 || x === 'RUNNING' || x === 'SUCCEEDED').map(x => count(x) + ' ' + x.toLowerCase().replace('_', ' ')).join(', '),
          o.maxTrialNumber > 0 ? Math.min(1, ended / o.maxTrialNumber) : null),
        card(multi() ? 'Pareto front' : 'Best so far', multi() ? S.front.length + ' trials' : b ? fmt(b.value) : '—', multi() ? objectives().map(x => x.metric).join(' · ') : b ? 'trial ' + b.seq + ' (' + b.job + ')' : 'no final value yet'),
        card('Elapsed', duration(elapsed), 'started ' + when(o.started)),
        card('Time left', estimateLeft(o, trials, elapsed), o.maxExperimentDuration ? 'limit ' + duration(o.maxExperimentDuration * 1000) : 'no time limit'),
        card('Tuner', o.tuner || '—', o.trialConcurrency + ' at a time; ' + (o.maximize ? 'maximising' : 'minimising')));
      valueOverTrials(c);
      main.querySelector('#best-title').textContent = multi() ? 'Pareto front' : 'Best trial';
      best.replaceChildren(multi() ? frontTable() : bestTable(b));
      if (!controlsBuilt) { controls.replaceChildren(...steerControls(o)); controlsBuilt = true; }
      main.querySelector('#steer-note').textContent = o.running ? 'Taken by the runner within a second.'
        : 'No runner runs this experiment: requests wait, and are taken when it is resumed (tunekit run --resume ' + o.id + ').';
      if (!configShown) {
        config.replaceChildren(h('details', {}, h('summary', {}, 'Search space'), h('pre', { class: 'json' }, JSON.stringify(o.searchSpace, null, 2))),
          h('details', {}, h('summary', {}, 'Config'), h('pre', { class: 'json' }, JSON.stringify(o.config, null, 2))));
        configShown = true;
      }
    },
  };
}

function card(k, v, s, progress) {
  return h('div', { class: 'card' }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, v), s ? h('div', { class: 's' }, s) : null,
    progress !== null && progress !== undefined ? h('div', { class: 'bar' }, h('div', { style: 'width:' + Math.round(progress * 100) + '%' })) : null);
}

function estimateLeft(o, trials, elapsed) {
  if (!o.running) return '—';
  const left = [];
  if (o.maxExperimentDuration) left.push(o.maxExperimentDuration * 1000 - elapsed);
  const ended = trials.filter(t => t.status !== 'RUNNING').length;
  if (o.maxTrialNumber > 0 && ended > 0) left.push(elapsed / ended * (o.maxTrialNumber - ended));
  if (!left.length) return 'unknown';
  return '≈ ' + duration(Math.max(0, Math.min(...left)));
}

function bestTable(b) {
  if (!b) return h('p', { class: 'empty' }, 'No trial has a final value yet.');
  return h('div', {}, h('table', { class: 'facts' },
    h('tr', {}, h('th', {}, 'trial'), h('td', {}, h('a', { href: '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(b.job) }, b.seq + ' (' + b.job + ')'))),
    h('tr', {}, h('th', {}, 'value'), h('td', {}, fmt(b.value))),
    Object.entries(b.params || {}).map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, fmt(v))))));
}

function frontTable() {
  const objs = objectives();
  const front = S.front.map(j => S.trials.get(j)).filter(Boolean).slice(0, 20);
  if (!front.length) return h('p', { class: 'empty' }, 'No trial has reported every objective yet.');
  return h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'trial'), objs.map(o => h('th', { class: 'num' }, o.metric + ' (' + (o.mode || 'minimize') + ')')))),
    h('tbody', {}, front.map(t => h('tr', {}, h('td', {}, h('a', { href: '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(t.job) }, t.seq + ' (' + t.job + ')')),
      objs.map(o => h('td', { class: 'num' }, fmt(objectiveValue(t, o))))))));
}

function steerControls(o) {
  const conc = h('input', { type: 'number', min: 1, class: 'narrow', id: 'set-concurrency', value: o.trialConcurrency });
  const max = h('input', { type: 'number', min: 0, class: 'narrow', id: 'set-max-trials', value: o.maxTrialNumber });
  const dur = h('input', { type: 'text', class: 'narrow', id: 'set-max-duration', placeholder: '2h, 30m, 0', value: o.maxExperimentDuration ? o.maxExperimentDuration + 's' : '0' });
  const apply = h('button', { class: 'primary', id: 'apply-limits', onclick: async () => {
    o = S.overview;
    const payload = {};
    if (String(o.trialConcurrency) !== conc.value) payload.trialConcurrency = Number(conc.value);
    if (String(o.maxTrialNumber) !== max.value) payload.maxTrialNumber = Number(max.value);
    const d = dur.value.trim();
    if (d !== (o.maxExperimentDuration ? o.maxExperimentDuration + 's' : '0')) payload.maxExperimentDuration = d;
    if (!Object.keys(payload).length) { toast('nothing changed'); return; }
    apply.disabled = true;
    await steer('limits', payload);
    apply.disabled = false;
  } }, 'Apply');
  const stop = h('button', { class: 'danger', id: 'stop-experiment', onclick: async () => {
    if (confirm('Stop the experiment? Its running trials are stopped; it can be resumed with tunekit run --resume ' + o.id + '.')) await steer('stop', {});
  } }, 'Stop the experiment');
  return [
    h('p', { class: 'muted', id: 'steer-note' }),
    h('div', { class: 'form' }, h('label', { for: 'set-concurrency' }, 'Trials at once'), conc, h('label', { for: 'set-max-trials' }, 'Trials at most (0: no limit)'), max,
      h('label', { for: 'set-max-duration' }, 'Run at most (0: no limit)'), dur),
    h('div', { class: 'row-actions' }, apply, stop),
    h('h2', { style: 'margin-top:1.2em' }, 'Add a trial'),
    h('p', { class: 'muted' }, 'Runs next, before the tuner\'s own suggestions; the tuner learns its result.'),
    addTrialForm(bestTrial() ? bestTrial().params : null),
  ];
}

function addTrialForm(start) {
  const fields = [];
  const form = h('div', { class: 'form', id: 'add-trial' });
  for (const [name, spec] of Object.entries(space())) {
    let input;
    const initial = start && start[name] !== undefined ? start[name] : null;
    if (spec._type === 'choice' && (spec._value || []).every(v => typeof v !== 'object' || v === null)) {
      input = h('select', { 'data-param': name }, spec._value.map((v, i) => h('option', { value: i, selected: initial !== null && initial === v }, fmt(v))));
      fields.push(() => [name, spec._value[Number(input.value)]]);
    } else {
      input = h('input', { type: 'text', 'data-param': name, value: initial === null ? '' : (typeof initial === 'object' ? JSON.stringify(initial) : String(initial)),
        placeholder: spec._type + ' ' + JSON.stringify(spec._value) });
      fields.push(() => {
        const text = input.value.trim();
        let v = text;
        try { v = JSON.parse(text); } catch (e) { /* a bare string */ }
        return [name, v];
      });
    }
    form.append(h('label', {}, name), input);
  }
  const add = h('button', { class: 'primary', id: 'add-trial-button', onclick: async () => {
    const parameters = Object.fromEntries(fields.map(f => f()));
    add.disabled = true;
    await steer('add-trial', { parameters });
    add.disabled = false;
  } }, 'Add trial');
  return h('div', {}, form, h('div', { class: 'row-actions' }, add));
}

// ---------- the trial table ----------

function columns() {
  const cols = [
    { key: 'seq', label: '#', num: true, width: 60, get: t => t.seq },
    { key: 'job', label: 'Trial', width: 90, get: t => t.job, cell: t => h('a', { href: '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(t.job) }, t.job) },
    { key: 'status', label: 'Status', width: 135, get: t => t.status, cell: t => statusPill(t.status) },
    { key: 'stop', label: 'Stop', width: 64, get: t => (t.status === 'RUNNING' ? 0 : 1),
      cell: t => (t.status === 'RUNNING' ? h('button', { class: 'danger', 'data-stop': t.job, onclick: () => stopTrial(t.job) }, 'Stop') : '') },
  ];
  if (multi()) for (const o of objectives()) cols.push({ key: 'obj:' + o.metric, label: o.metric, num: true, get: t => objectiveValue(t, o) });
  else cols.push({ key: 'value', label: 'Value', num: true, get: t => (typeof t.value === 'number' ? t.value : null) });
  cols.push({ key: 'duration', label: 'Duration', num: true, get: t => durationOf(t), show: t => duration(durationOf(t)) });
  cols.push({ key: 'steps', label: 'Steps', num: true, get: t => t.steps });
  cols.push({ key: 'last', label: 'Last intermediate', num: true, get: t => (typeof t.last === 'number' ? t.last : null) });
  for (const n of paramNames()) cols.push({ key: 'p:' + n, label: n, num: !isChoice(n), get: t => paramValue(t, n), show: t => fmt(t.params ? t.params[n] : null) });
  cols.push({ key: 'machine', label: 'Machine', get: t => t.machine || '' });
  cols.push({ key: 'gpus', label: 'GPUs', get: t => (t.gpus ? t.gpus.join(',') : '') });
  cols.push({ key: 'message', label: 'Message', width: 260, get: t => t.message || '' });
  return cols;
}

function matches(t, f, cols) {
  if (!f.statuses.has(t.status)) return false;
  if (f.min !== '' && !(typeof t.value === 'number' && t.value >= Number(f.min))) return false;
  if (f.max !== '' && !(typeof t.value === 'number' && t.value <= Number(f.max))) return false;
  if (f.jobs && !f.jobs.has(t.job)) return false;
  if (f.text) {
    // "lr<0.01", "optimizer=adam", or any text found in the trial's id or parameters
    for (const term of f.text.split(/\s+/).filter(Boolean)) {
      const m = term.match(/^([^<>=!]+)(<=|>=|!=|=|<|>)(.+)$/);
      if (m) {
        const col = cols.find(c => c.key === 'p:' + m[1] || c.label === m[1] || c.key === m[1]);
        if (!col) return false;
        const v = col.get(t);
        const w = isNaN(Number(m[3])) ? m[3] : Number(m[3]);
        const ok = { '<': v < w, '>': v > w, '<=': v <= w, '>=': v >= w, '=': v == w || fmt(v) === m[3], '!=': !(v == w || fmt(v) === m[3]) }[m[2]];
        if (!ok) return false;
      } else if (!(t.job + ' ' + JSON.stringify(t.params)).toLowerCase().includes(term.toLowerCase())) return false;
    }
  }
  return true;
}

function trialsPage(main) {
  const box = h('div', { class: 'tablebox', id: 'trial-table' });
  const info = h('span', { class: 'muted', id: 'trial-count' });
  const statusBoxes = STATUSES.map(s => h('label', {}, h('input', { type: 'checkbox', checked: S.filter.statuses.has(s), 'data-status': s, onchange: e => {
    if (e.target.checked) S.filter.statuses.add(s); else S.filter.statuses.delete(s);
    refresh(true);
  } }), ' ', s.toLowerCase().replace('_', ' '), h('span', { class: 'muted', 'data-count': s })));
  const text = h('input', { type: 'text', id: 'trial-filter', placeholder: 'filter: lr<0.01 optimizer=adam', value: S.filter.text, style: 'width:18em',
    oninput: () => { S.filter.text = text.value.trim(); refresh(true); } });
  const min = h('input', { type: 'number', class: 'narrow', placeholder: 'value ≥', value: S.filter.min, oninput: () => { S.filter.min = min.value; refresh(true); } });
  const max = h('input', { type: 'number', class: 'narrow', placeholder: 'value ≤', value: S.filter.max, oninput: () => { S.filter.max = max.value; refresh(true); } });
  const menu = h('div', { class: 'menu', hidden: true });
  const colButton = h('button', { id: 'columns-button', onclick: () => { menu.hidden = !menu.hidden; } }, 'Columns');
  const compare = h('button', { id: 'compare-button', onclick: () => { location.hash = '#/e/' + encodeURIComponent(S.id) + '/compare?jobs=' + [...S.selected].join(','); } }, 'Compare selected');
  const clearBrush = h('button', { hidden: !S.filter.jobs, onclick: () => { S.filter.jobs = null; clearBrush.hidden = true; refresh(true); } }, 'Show all (clear the chart\'s selection)');
  main.append(h('div', { class: 'toolbar' }, statusBoxes, text, min, max, h('span', { class: 'columns' }, colButton, menu), compare, clearBrush, info), box);
  let rows = [];
  let cols = [];
  let colKeys = '';
  const table = h('table', { class: 'fixed' });
  const colgroup = h('colgroup');
  const head = h('thead');
  const body = h('tbody');
  table.append(colgroup, head, body);
  box.append(table);
  box.addEventListener('scroll', () => paint());

  function refresh(filterChanged) {
    const all = columns();
    if (all.map(c => c.key).join() !== colKeys) {
      colKeys = all.map(c => c.key).join();
      menu.replaceChildren(...all.map(c => h('label', {}, h('input', { type: 'checkbox', checked: !S.hidden.has(c.key), onchange: e => {
        if (e.target.checked) S.hidden.delete(c.key); else S.hidden.add(c.key);
        refresh(true);
      } }), ' ', c.label)));
    }
    cols = all.filter(c => !S.hidden.has(c.key));
    const sortCol = all.find(c => c.key === S.sort.key) || all[0];
    rows = [...S.trials.values()].filter(t => matches(t, S.filter, all));
    const dir = S.sort.up ? 1 : -1;
    rows.sort((a, b) => {
      const x = sortCol.get(a), y = sortCol.get(b);
      if (x === y) return a.seq - b.seq;
      if (x === null || x === undefined || x === '') return 1;
      if (y === null || y === undefined || y === '') return -1;
      return (x < y ? -1 : 1) * dir;
    });
    for (const s of STATUSES) {
      const n = [...S.trials.values()].filter(t => t.status === s).length;
      const el = main.querySelector('[data-count="' + s + '"]');
      if (el) el.textContent = ' ' + n;
    }
    info.textContent = rows.length + ' of ' + S.trials.size + ' trials' + (S.selected.size ? ', ' + S.selected.size + ' selected' : '');
    // fixed column widths: the browser lays out the rows drawn without measuring them, and columns keep their width while scrolling
    const widths = [40, ...cols.map(c => c.width || (c.key.startsWith('p:') ? 120 : 110))];
    colgroup.replaceChildren(...widths.map(w => h('col', { style: 'width:' + w + 'px' })));
    table.style.width = widths.reduce((a, b) => a + b, 0) + 'px';
    head.replaceChildren(h('tr', {}, h('th', {}, ''), cols.map(c => h('th', {
      class: (c.num ? 'num ' : '') + (c.key === S.sort.key ? 'sorted' + (S.sort.up ? ' up' : '') : ''), 'data-key': c.key,
      onclick: () => { S.sort = { key: c.key, up: S.sort.key === c.key ? !S.sort.up : true }; refresh(true); },
    }, c.label))));
    if (filterChanged) box.scrollTop = 0;
    painted = null;
    paint();
  }

  let painted = null; // the rows drawn: [first, last)
  function paint() {
    const top = Math.floor(box.scrollTop / ROW_HEIGHT);
    const inSight = Math.ceil(box.clientHeight / ROW_HEIGHT);
    // rows in sight are drawn already (a few beyond each edge are): nothing to do
    if (painted && top >= painted[0] && top + inSight <= painted[1]) return;
    const first = Math.max(0, top - 8);
    const last = Math.min(rows.length, top + inSight + 8);
    painted = [first, last];
    const best = bestTrial();
    const out = [h('tr', { style: 'height:' + first * ROW_HEIGHT + 'px' })];
    for (let i = first; i < last; i++) {
      const t = rows[i];
      out.push(h('tr', { class: 'row' + (best && best.job === t.job ? ' best' : ''), 'data-job': t.job },
        h('td', {}, h('input', { type: 'checkbox', checked: S.selected.has(t.job), onchange: e => {
          if (e.target.checked) S.selected.add(t.job); else S.selected.delete(t.job);
          info.textContent = rows.length + ' of ' + S.trials.size + ' trials' + (S.selected.size ? ', ' + S.selected.size + ' selected' : '');
          tabs('trials');
        } })),
        cols.map(c => h('td', { class: c.num ? 'num' : null, title: c.cell ? null : c.show ? c.show(t) : String(c.get(t) ?? '') },
          c.cell ? c.cell(t) : c.show ? c.show(t) : fmt(c.get(t))))));
    }
    out.push(h('tr', { style: 'height:' + (rows.length - last) * ROW_HEIGHT + 'px' }));
    body.replaceChildren(...out);
  }

  return { render() { tabs('trials'); refresh(false); } };
}

async function stopTrial(job) {
  if (confirm('Stop trial ' + job + '? It ends USER_CANCELED and the tuner hears of it.')) await steer('stop-trial', { trialJobId: job });
}

// ---------- a trial ----------

function trialPage(main, job) {
  const head = h('div');
  const facts = h('div', { class: 'panel' });
  const chartEl = h('div', { class: 'chart small' });
  const metrics = h('div');
  const out = h('pre', { id: 'stdout' });
  const err = h('pre', { id: 'stderr' });
  const events = h('div');
  main.append(head, h('div', { class: 'grid2' }, facts, h('div', { class: 'panel' }, h('h2', {}, 'Intermediate results'), chartEl, metrics)),
    h('div', { class: 'grid2' }, h('div', { class: 'panel' }, h('h2', {}, 'Output (trial.stdout, its end)'), out), h('div', { class: 'panel' }, h('h2', {}, 'Errors (trial.stderr, its end)'), err)),
    h('div', { class: 'panel' }, h('h2', {}, 'Events'), events));
  const c = chart(chartEl);
  let loading = false;
  let lastLoad = 0;
  async function load() {
    if (loading) return;
    loading = true;
    try {
      const d = await getJson('/api/experiments/' + encodeURIComponent(S.id) + '/trials/' + encodeURIComponent(job));
      lastLoad = Date.now();
      const t = d.trial;
      head.replaceChildren(h('h1', {}, 'Trial ' + t.seq + ' ', h('span', { class: 'muted' }, '(' + t.job + ') '), statusPill(t.status)),
        h('div', { class: 'row-actions', style: 'margin-bottom:1em' },
          t.status === 'RUNNING' ? h('button', { class: 'danger', id: 'stop-trial', onclick: () => stopTrial(t.job) }, 'Stop this trial') : null,
          h('button', { id: 'run-again', onclick: async () => { if (confirm('Run a new trial with these parameters?')) await steer('add-trial', { parameters: t.params }); } }, 'Run these parameters again')));
      const rows = [['parameter id', t.pid], ['value', typeof t.value === 'number' ? fmt(t.value) : t.value], ['final metric', t.metric === null ? '' : fmt(t.metric)],
        ['started', when(t.start)], ['ended', when(t.end)], ['duration', duration(durationOf(t))], ['exit code', t.exit], ['message', t.message],
        ['machine', t.machine || 'this machine'], ['GPUs', t.gpus ? (t.gpus.length ? t.gpus.join(', ') : 'none') : 'not scheduled']];
      facts.replaceChildren(h('h2', {}, 'Trial'), h('table', { class: 'facts' }, rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v === null || v === undefined ? '' : String(v))))),
        h('h2', { style: 'margin-top:1em' }, 'Parameters'), h('table', { class: 'facts', id: 'trial-parameters' }, Object.entries(t.params || {}).map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, fmt(v))))));
      const pts = d.metrics.filter(m => m.type === 'PERIODICAL' && typeof m.number === 'number').map((m, i) => [i + 1, m.number]);
      c.setOption({ animation: false, grid: { left: 60, right: 20, top: 14, bottom: 30 }, tooltip: { trigger: 'axis' },
        xAxis: { type: 'value', minInterval: 1, name: 'step', nameLocation: 'middle', nameGap: 22 }, yAxis: { type: 'value', scale: true },
        series: [{ type: 'line', data: pts, showSymbol: pts.length < 60, lineStyle: { type: t.status === 'EARLY_STOPPED' ? 'dashed' : 'solid' } }] }, true);
      metrics.replaceChildren(h('details', {}, h('summary', {}, d.metrics.length + ' metrics reported'),
        h('table', {}, h('thead', {}, h('tr', {}, ['type', '#', 'value', 'at'].map(x => h('th', {}, x)))),
          h('tbody', {}, d.metrics.map(m => h('tr', {}, h('td', {}, m.type), h('td', { class: 'num' }, m.seq), h('td', {}, fmt(m.value)), h('td', {}, when(m.at))))))));
      out.textContent = d.stdout || '(nothing)';
      err.textContent = d.stderr || '(nothing)';
      events.replaceChildren(h('table', {}, h('tbody', {}, d.events.map(e => h('tr', {}, h('td', {}, when(e.at)), h('td', {}, e.kind), h('td', { style: 'white-space:normal' }, e.text))))));
    } catch (e) {
      head.replaceChildren(h('h1', {}, 'Trial ' + job), h('p', { class: 'empty' }, e.message));
    } finally {
      loading = false;
    }
  }
  load();
  return { render() {
    tabs('t');
    const t = S.trials.get(job);
    if (Date.now() - lastLoad > 2000 && (!t || t.status === 'RUNNING' || (t.end && t.end > lastLoad - 5000))) load();
  } };
}

// ---------- charts ----------

function chartsPage(main) {
  let built = null;
  return { render(changed) {
    tabs('charts');
    if (!built) built = buildCharts(main);
    built.render(changed);
  } };
}

function buildCharts(main) {
  const mk = (title, cls, id, extra) => {
    const el = h('div', { class: 'chart ' + (cls || ''), id });
    const note = h('div', { class: 'legend-note' });
    main.querySelector('#charts').append(h('div', { class: 'panel' }, h('h2', {}, title), extra || null, el, note));
    return { el, note };
  };
  main.append(h('div', { class: 'grid2', id: 'charts' }));
  let paretoChart = null;
  let pick = null;
  if (multi()) {
    const objs = objectives();
    const sx = h('select', {}, objs.map((o, i) => h('option', { value: i, selected: i === 0 }, o.metric)));
    const sy = h('select', {}, objs.map((o, i) => h('option', { value: i, selected: i === 1 }, o.metric)));
    pick = () => [Number(sx.value), Number(sy.value)];
    const p = mk('Pareto front', 'tall', 'chart-pareto', h('div', { class: 'toolbar' }, 'x ', sx, ' y ', sy));
    paretoChart = chart(p.el);
    sx.onchange = sy.onchange = () => pareto(paretoChart, ...pick());
  }
  const v = mk(multi() ? 'Value over trials (' + (S.overview.objectives[0].metric || 'first objective') + ')' : 'Value over trials', '', 'chart-value');
  const im = mk('Intermediate results', '', 'chart-intermediate');
  const brushNote = h('span', { class: 'muted' });
  const par = mk('Parallel coordinates (drag along an axis to select)', 'tall', 'chart-parallel', brushNote);
  const imp = mk('Hyperparameter importance', '', 'chart-importance');
  const du = mk('Durations', '', 'chart-durations');
  const sliceBox = h('div', { class: 'grid2', id: 'slices' });
  main.append(h('h2', { style: 'margin-top:0.5em' }, 'Slices: value against each parameter'), sliceBox);
  const cv = chart(v.el), ci = chart(im.el), cp = chart(par.el), cimp = chart(imp.el), cd = chart(du.el);
  let last = 0;
  let timer = null;
  function draw() {
    last = Date.now();
    valueOverTrials(cv);
    intermediateCurves(ci, im.note).catch(e => { im.note.textContent = e.message; });
    parallel(cp, jobs => {
      S.filter.jobs = jobs ? new Set(jobs) : null;
      brushNote.replaceChildren(jobs ? h('span', {}, jobs.length + ' trials selected · ', h('a', { href: '#/e/' + encodeURIComponent(S.id) + '/trials' }, 'show them in the table')) : '');
    });
    importance(cimp, imp.note).catch(e => { imp.note.textContent = e.message; });
    durations(cd);
    if (paretoChart) pareto(paretoChart, ...pick());
    slices(sliceBox);
  }
  return { render(changed) {
    // redrawing every chart costs: at most every 3 s while trials keep coming
    if (!changed || Date.now() - last > 3000) { clearTimeout(timer); draw(); } else if (!timer) timer = setTimeout(() => { timer = null; draw(); }, 3000);
  } };
}

function comparePage(main, jobs) {
  const box = h('div');
  const chartEl = h('div', { class: 'chart' });
  main.append(h('h1', {}, 'Compare trials'), h('div', { class: 'panel' }, box), h('div', { class: 'panel' }, h('h2', {}, 'Intermediate results'), chartEl));
  const c = chart(chartEl);
  let drawn = 0;
  return { render() {
    tabs('compare');
    if (!jobs.length) jobs = [...S.selected];
    const trials = jobs.map(j => S.trials.get(j)).filter(Boolean);
    if (!trials.length) { box.replaceChildren(h('p', { class: 'empty' }, 'Select trials in the Trials table (their boxes), then Compare selected.')); return; }
    const rows = [['status', t => statusPill(t.status)], ['value', t => fmt(t.value)], ['duration', t => duration(durationOf(t))], ['steps', t => t.steps]];
    for (const n of paramNames()) rows.push(['p:' + n, t => fmt(t.params ? t.params[n] : null)]);
    box.replaceChildren(h('table', { id: 'compare-table' }, h('thead', {}, h('tr', {}, h('th', {}, ''), trials.map(t => h('th', {}, h('a', { href: '#/e/' + encodeURIComponent(S.id) + '/t/' + encodeURIComponent(t.job) }, t.seq + ' (' + t.job + ')'))))),
      h('tbody', {}, rows.map(([k, f]) => {
        const cells = trials.map(f);
        const texts = cells.map(x => (x instanceof Node ? x.textContent : String(x)));
        const differ = k.startsWith('p:') && new Set(texts).size > 1;
        return h('tr', { class: differ ? 'diff' : null }, h('th', {}, k.replace(/^p:/, '')), cells.map(x => h('td', {}, x)));
      }))));
    if (Date.now() - drawn > 3000) {
      drawn = Date.now();
      getJson('/api/experiments/' + encodeURIComponent(S.id) + '/intermediate?jobs=' + trials.map(t => encodeURIComponent(t.job)).join(',')).then(d => {
        c.setOption({ animation: false, legend: { top: 0 }, grid: { left: 60, right: 20, top: 36, bottom: 30 }, tooltip: { trigger: 'axis' },
          xAxis: { type: 'value', minInterval: 1 }, yAxis: { type: 'value', scale: true },
          series: trials.map(t => ({ name: t.seq + ' (' + t.job + ')', type: 'line', showSymbol: false, data: (d.curves[t.job] || []).filter(p => typeof p[1] === 'number') })) }, true);
      }).catch(() => {});
    }
  } };
}

route();
