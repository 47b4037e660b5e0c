#!/usr/bin/env python3
"""Tables and charts for docs/performance.md, from the JMH JSON in bench/results/.

    pip install matplotlib        # once
    python3 bench/tools/charts.py

Each table is written into docs/performance.md between `<!-- table: NAME -->` and
`<!-- end table -->`, and each chart to docs/perf-NAME.png. A suite whose JSON is missing is
left as it was. Scores are JMH's, with its 99.9% confidence half-widths (the "±").
"""
import json
import math
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
RESULTS = os.path.join(ROOT, 'bench', 'results')
DOC = os.path.join(ROOT, 'docs', 'performance.md')


def load(name):
    path = os.path.join(RESULTS, name + '.json')
    if not os.path.exists(path):
        return None
    rows = []
    for r in json.load(open(path)):
        m = r['primaryMetric']
        alloc = None
        for k, v in r.get('secondaryMetrics', {}).items():
            if k.endswith('gc.alloc.rate.norm'):
                alloc = v['score']
        scale = 1000.0 if m['scoreUnit'] == 'ms/op' else 1.0  # every table is in µs
        err = m['scoreError'] if not math.isnan(m['scoreError']) else 0.0
        rows.append({
            'method': r['benchmark'].rsplit('.', 1)[1],
            'params': r.get('params', {}),
            'score': m['score'] * scale,
            'err': err * scale,
            'unit': 'us/op' if scale != 1.0 else m['scoreUnit'],
            'alloc': alloc,
        })
    return rows


def pick(rows, method=None, **params):
    out = [r for r in rows if (method is None or r['method'] == method)
           and all(r['params'].get(k) == v for k, v in params.items())]
    return out[0] if out else None


def size_label(n):
    n = int(n)
    for unit, f in (('MiB', 1 << 20), ('KiB', 1 << 10)):
        if n >= f and n % f == 0:
            return '%d %s' % (n // f, unit)
    return '%d B' % n


def num(x):
    if x >= 1000:
        return '{:,.0f}'.format(x)
    if x >= 100:
        return '%.0f' % x
    if x >= 10:
        return '%.1f' % x
    return '%.2f' % x


def pm(r):
    return '%s ± %s' % (num(r['score']), num(r['err']))


def ratio(a, b):
    """a / b with the error of a ratio of independent estimates."""
    q = a['score'] / b['score']
    e = q * math.sqrt((a['err'] / a['score']) ** 2 + (b['err'] / b['score']) ** 2)
    return '%.2f ± %.2f' % (q, e)


def md(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |',
             '|' + '|'.join('---' if i == 0 else '---:' for i in range(len(header))) + '|']
    lines += ['| ' + ' | '.join(r) + ' |' for r in rows]
    return '\n'.join(lines)


def bars(name, title, ylabel, groups, series, value, log=True):
    """groups: x labels; series: [(label, fn(group) -> row or None)]."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 3.6), dpi=110)
    width = 0.8 / len(series)
    for i, (label, fn) in enumerate(series):
        xs, ys, es = [], [], []
        for g, group in enumerate(groups):
            r = fn(group)
            if r is not None:
                v, e = value(r)
                xs.append(g + (i - (len(series) - 1) / 2) * width)
                ys.append(v)
                es.append(e)
        ax.bar(xs, ys, width, yerr=es, label=label, capsize=2)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([size_label(g) if g.isdigit() else g for g in groups])
    if log:
        ax.set_yscale('log')
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=min(4, len(series)))
    ax.grid(axis='y', alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(ROOT, 'docs', 'perf-%s.png' % name))
    plt.close(fig)


def us(r):
    return r['score'], r['err']


# ---- the tables -------------------------------------------------------------------------------

def mime_parse(rows):
    out = []
    for body in ('random', 'adversarial'):
        for size in ('32768', '1048576', '12582912'):
            f = pick(rows, 'ferry', size=size, body=body)
            raw = pick(rows, 'rawRead', size=size, body=body)
            m4 = pick(rows, 'mime4j', size=size, body=body)
            mp = pick(rows, 'mimepull', size=size, body=body)
            if not (f and raw):
                continue
            out.append([size_label(size), body, pm(f), pm(raw), ratio(f, raw),
                        pm(m4) if m4 else '', ratio(m4, f) if m4 else '',
                        pm(mp) if mp else '', '%.0f' % f['alloc'] if f['alloc'] else ''])
    sizes = ['32768', '1048576', '12582912']
    bars('mime-parse', 'MIME parse of one attachment, random body (µs, log scale)', 'µs',
         sizes, [(m, lambda s, m=m: pick(rows, m, size=s, body='random'))
                 for m in ('rawRead', 'ferry', 'mime4j', 'mimepull')], us)
    return md(['attachment', 'body', 'Ferry µs', 'raw read µs', 'Ferry ÷ raw', 'mime4j µs',
               'mime4j ÷ Ferry', 'MIMEPull µs', 'Ferry B/op'], out)


def mime_write(rows):
    out = []
    for size in ('32768', '1048576', '12582912'):
        f = pick(rows, 'ferryRelated', size=size)
        raw = pick(rows, 'rawWrite', size=size)
        cxf = pick(rows, 'cxf', size=size)
        if f and raw:
            out.append([size_label(size), pm(f), pm(raw), ratio(f, raw),
                        pm(cxf) if cxf else '', ratio(cxf, f) if cxf else ''])
    return md(['attachment', 'Ferry µs', 'raw write µs', 'Ferry ÷ raw', 'CXF µs', 'CXF ÷ Ferry'],
              out)


def soap_copy(rows):
    out = []
    for size in ('65536', '1048576'):
        a = pick(rows, 'floorArraycopy', bodyBytes=size)
        rcv = pick(rows, 'floorReceive', bodyBytes=size)
        same = pick(rows, 'ferry', bodyBytes=size, changeTo='false')
        changed = pick(rows, 'ferry', bodyBytes=size, changeTo='true')
        metro = pick(rows, 'metro', bodyBytes=size, changeTo='true')
        if not (a and rcv and changed):
            continue
        out.append([size_label(size), pm(a), pm(rcv), pm(changed), ratio(changed, rcv),
                    ratio(changed, a), '%.2f' % (changed['alloc'] / int(size)),
                    ratio(changed, same) if same else '', pm(metro) if metro else ''])
    sizes = ['65536', '1048576']
    bars('soap-copy', 'Receive, change a header, forward: one envelope (µs, log scale)', 'µs',
         sizes, [('arraycopy floor', lambda s: pick(rows, 'floorArraycopy', bodyBytes=s)),
                 ('receive floor', lambda s: pick(rows, 'floorReceive', bodyBytes=s)),
                 ('Ferry', lambda s: pick(rows, 'ferry', bodyBytes=s, changeTo='true')),
                 ('Metro', lambda s: pick(rows, 'metro', bodyBytes=s, changeTo='true'))], us)
    return md(['envelope', 'arraycopy µs', 'receive floor µs', 'Ferry µs', 'Ferry ÷ receive',
               'Ferry ÷ arraycopy', 'B allocated per envelope byte', 'changed ÷ unchanged',
               'Metro µs'], out)


def mtom_codec(rows):
    out = []
    for size in ('65536', '1048576', '12582912'):
        raw = pick(rows, 'rawCopy', blobBytes=size)
        cells = [size_label(size), pm(raw) if raw else '']
        for op in ('Encode', 'Decode'):
            f = pick(rows, 'ferry' + op, blobBytes=size)
            cells.append(pm(f) if f else '')
            for peer in ('cxf', 'metro'):
                p = pick(rows, peer + op, blobBytes=size)
                cells.append(ratio(p, f) if (p and f) else '')
        out.append(cells)
    return md(['attachment', 'raw copy µs', 'Ferry encode µs', 'CXF ÷ Ferry', 'Metro ÷ Ferry',
               'Ferry decode µs', 'CXF ÷ Ferry', 'Metro ÷ Ferry'], out)


def broker(rows):
    out = []
    sizes = []
    for size in ('4096', '32768', '1048576', '12582912'):
        d = pick(rows, 'roundTrip', path='direct', size=size)
        f = pick(rows, 'roundTrip', path='ferry-broker', size=size)
        n = pick(rows, 'roundTrip', path='nginx', size=size)
        if not (d and f and n):
            continue
        sizes.append(size)
        r = pick(rows, 'roundTrip', path='netty-relay', size=size)
        fo = {'score': f['score'] - d['score'], 'err': math.hypot(f['err'], d['err'])}
        no = {'score': n['score'] - d['score'], 'err': math.hypot(n['err'], d['err'])}
        ro = r and {'score': r['score'] - d['score'], 'err': math.hypot(r['err'], d['err'])}
        out.append([size_label(size), pm(d), pm(f), pm(n), pm(fo), pm(no),
                    ratio(fo, no) if no['score'] > 0 else '', pm(ro) if ro else '',
                    ratio(ro, no) if ro and no['score'] > 0 else ''])
    bars('broker', 'Echo round trip: direct, through Ferry\'s broker, nginx, a bare Netty relay'
         ' (µs, log)', 'µs', sizes,
         [(lab, lambda s, rel=rel: pick(rows, 'roundTrip', path=rel, size=s))
          for lab, rel in (('direct', 'direct'), ('ferry broker', 'ferry-broker'),
                           ('nginx', 'nginx'), ('bare Netty relay', 'netty-relay'))], us)
    return md(['attachment', 'direct µs', 'via Ferry µs', 'via nginx µs', 'Ferry adds µs',
               'nginx adds µs', 'Ferry ÷ nginx (added)', 'bare Netty relay adds µs',
               'relay ÷ nginx (added)'], out)


STACKS = (('ferry', 'Ferry (SoapClient, SoapServer)'), ('ferry-typed', 'Ferry typed'),
          ('ferry-jaxws', 'Ferry JAX-WS'), ('cxf', 'CXF 4'), ('metro', 'Metro 4'))


def http_echo(rows):
    alloc = load('http-alloc') or []
    out = []
    sizes = ['4096', '32768', '1048576', '12582912']
    for stack, label in STACKS:
        cells = [label]
        for size in sizes:
            r = pick(rows, 'roundTrip', stack=stack, size=size)
            c = pick(rows, 'roundTrip', stack='cxf', size=size)
            cells.append(pm(r) + ('' if stack == 'cxf' or not c else ' (%s)' % ratio(r, c))
                         if r else '')
        t = pick(rows, 'concurrent', stack=stack, size='32768')
        tc = pick(rows, 'concurrent', stack='cxf', size='32768')
        cells.append((pm(t) + ('' if stack == 'cxf' else ' (%s)' % ratio(t, tc))) if t and tc
                     else '')
        cells.append(allocation(alloc, stack))
        out.append(cells)
    bars('http-echo', 'testMtom echo round trip over loopback, MTOM on (µs, log scale)', 'µs',
         sizes, [(label, lambda s, st=stack: pick(rows, 'roundTrip', stack=st, size=s))
                 for stack, label in STACKS], us)
    return md(['stack (× CXF)'] + ['%s µs' % size_label(s) for s in sizes]
              + ['8 clients, 32 KiB, calls/s', 'B allocated per call, 32 KiB'], out)


def allocation(rows, stack):
    """Bytes a 32 KiB call allocates (client and server together), with its ratio to CXF's."""
    r, c = pick(rows, 'roundTrip', stack=stack), pick(rows, 'roundTrip', stack='cxf')
    if not r or not r['alloc']:
        return ''
    return '{:,.0f}'.format(r['alloc']) + ('' if stack == 'cxf' or not c or not c['alloc']
                                          else ' (%.2f)' % (r['alloc'] / c['alloc']))


def mtom_crossover(rows):
    out = []
    for size in ('1024', '2048', '4096', '8192', '16384'):
        cells = [size_label(size)]
        for stack in ('ferry-typed', 'cxf'):
            on = pick(rows, 'roundTrip', stack=stack, size=size, mtom='true')
            off = pick(rows, 'roundTrip', stack=stack, size=size, mtom='false')
            cells += [pm(on), pm(off), ratio(on, off)] if on and off else ['', '', '']
        out.append(cells)
    return md(['blob', 'Ferry typed, MTOM µs', 'inline µs', 'MTOM ÷ inline', 'CXF, MTOM µs',
               'inline µs', 'MTOM ÷ inline'], out)


def ldap_entry(rows):
    out = []
    for shape in ('1k', '4k', '64k'):
        a = pick(rows, 'arraycopy', shape=shape)
        f = pick(rows, 'ferryDecode', shape=shape)
        fc = pick(rows, 'ferryDecodeCopied', shape=shape)
        peers = [(p, pick(rows, p + 'Decode', shape=shape))
                 for p in ('unboundid', 'apache', 'opendj', 'bc')]
        peers = [(p, r) for p, r in peers if r]
        if not f:
            continue
        best = min(peers, key=lambda pr: pr[1]['score']) if peers else None
        out.append([shape, pm(a) if a else '', pm(f), pm(fc) if fc else '',
                    '%s (%s)' % (pm(best[1]), best[0]) if best else '',
                    ratio(f, best[1]) if best else '',
                    '{:,.0f}'.format(f['alloc']) if f['alloc'] else ''])
    return md(['entry PDU', 'arraycopy µs', 'Ferry decode µs (array handed over)',
               'Ferry decode µs (array copied)', 'best peer µs', 'Ferry ÷ best peer',
               'Ferry B/op'], out)


def wss(rows, floor=None, library=None):
    """One row per policy: Ferry's round trip, CXF's, their ratio, WSS4J alone (DOM and
    streaming, from WssLibraryFloorBenchmark) and, for signed, the signatures' floor."""
    out = []
    seen = []
    library = library or []
    for r in rows:
        p = r['params']
        key = (p.get('security'), p.get('keyType'), p.get('mtom'), p.get('blobBytes'))
        if key in seen:
            continue
        seen.append(key)
        same = dict(security=key[0], keyType=key[1], mtom=key[2], blobBytes=key[3])
        f, c = pick(rows, stack='ferry', **same), pick(rows, stack='cxf', **same)
        cells = [key[0], key[1] if floor is not None else size_label(key[3]),
                 pm(f) if f else '', pm(c) if c else '', ratio(f, c) if f and c else '']
        dom = pick(library, api='dom', security=key[0], keyType=key[1])
        stax = pick(library, api='stax', security=key[0], keyType=key[1])
        cells.append('%s / %s' % (pm(dom), pm(stax)) if dom and stax else '')
        if floor is not None:
            fl = pick(floor, keyType=key[1])
            cells.append(pm(fl) if fl and key[0] == 'signed' else '')
        out.append(cells)
    header = ['security', 'key' if floor is not None else 'blob', 'Ferry µs', 'CXF µs',
              'Ferry ÷ CXF', 'WSS4J alone µs, DOM / streaming']
    return md(header + (['the JDK signatures alone µs'] if floor is not None else []), out)


def wss_verify(rows):
    return md(['attachment', 'µs to read and verify a signed 1 KiB Body'],
              [[size_label(r['params'].get('attachmentBytes', '0')), pm(r)] for r in rows])


TABLES = {
    'mime-parse': mime_parse, 'mime-write': mime_write, 'soap-copy': soap_copy,
    'mtom-codec': mtom_codec, 'broker': broker, 'http-echo': http_echo,
    'mtom-crossover': mtom_crossover, 'ldap-entry': ldap_entry,
    'wss-token': lambda r: wss(r, library=load('wss-library')),
    'wss-signed': lambda r: wss(r, load('wss-floor') or [], load('wss-library')),
    'wss-verify': wss_verify,
}


def main():
    doc = open(DOC).read()
    for name, fn in TABLES.items():
        rows = load(name)
        if rows is None:
            continue
        table = fn(rows)
        pattern = re.compile(r'(<!-- table: %s -->\n).*?(<!-- end table -->)' % re.escape(name),
                             re.S)
        if not pattern.search(doc):
            print('docs/performance.md has no table %s' % name, file=sys.stderr)
            continue
        doc = pattern.sub(lambda m: m.group(1) + table + '\n' + m.group(2), doc)
        print('table %s: %d rows' % (name, table.count('\n') - 1))
    open(DOC, 'w').write(doc)


if __name__ == '__main__':
    main()
