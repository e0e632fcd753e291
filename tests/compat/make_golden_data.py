"""Write golden files for the data pipeline with the REAL MXNet 1.9.1 (the oracle).

Run once under the oracle python from the repository root::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_data.py

Outputs go to tests/compat/golden/data/. Tests load them without the oracle.
"""
import json
import os
import struct

import numpy as np
import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'golden', 'data')
IMG_DIR = os.path.join(HERE, '..', 'image')
MAGIC = struct.pack('<I', 0xCED7230A)


def rec_payloads():
    """Payloads chosen to exercise every split case of the RecordIO writer."""
    return [
        b'',
        b'a',
        b'hello world!',
        b'ABCD' + MAGIC + b'EFGHIJ',               # magic at an aligned offset
        b'AB' + MAGIC + b'CDEFGH',                 # magic at an unaligned offset: not split
        MAGIC,                                      # the magic word alone
        MAGIC + MAGIC + b'xyz',                     # consecutive magic words
        b'12345678' + MAGIC + b'abcd' + MAGIC,     # magic at the end
        bytes(range(256)) * 3,
        b'Q' * 4097,
    ]


def write_recordio():
    pay = rec_payloads()
    rec = mx.recordio.MXRecordIO(os.path.join(OUT, 'plain.rec'), 'w')
    for p in pay:
        rec.write(p)
    rec.close()
    rec = mx.recordio.MXIndexedRecordIO(os.path.join(OUT, 'indexed.idx'),
                                        os.path.join(OUT, 'indexed.rec'), 'w')
    headers = []
    for i, p in enumerate(pay):
        if i % 2:
            h = mx.recordio.IRHeader(0, float(i) + 0.5, 1000 + i, i)
            lab = h.label
        else:
            lab = [float(i), -1.25, 3.0][: 1 + i % 3]
            h = mx.recordio.IRHeader(0, lab, 2000 + i, 0)
        headers.append({'label': lab, 'id': h.id, 'id2': h.id2})
        rec.write_idx(i * 5, mx.recordio.pack(h, p))
    rec.close()
    with open(os.path.join(OUT, 'recordio.json'), 'w') as f:
        json.dump({'payloads': [p.hex() for p in pay], 'headers': headers}, f)


def main():
    os.makedirs(OUT, exist_ok=True)
    np.random.seed(0)
    mx.random.seed(0)
    write_recordio()


if __name__ == '__main__':
    main()
