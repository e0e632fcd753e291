"""The main job: train a LeNet-style Gluon network on the bundled handwritten digits.

It trains hybridized, reports per-epoch loss/accuracy and images/sec, checks held-out
accuracy, exports the model (``-symbol.json`` + ``.params``), reloads it through
``SymbolBlock.imports`` and through ``mx.mod.Module``, checks all three predict the same, and
saves a PNG of the training curves (and the network drawing when graphviz is installed).

Run: ``bash scripts/main.sh`` (or ``python examples/train_digits.py --epochs 15``).
"""

import argparse
import gzip
import os
import sys
import time

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

HERE = os.path.dirname(os.path.abspath(__file__))


def load_digits(path):
    with gzip.open(path, "rt") as f:
        rows = np.loadtxt(f, delimiter=",", dtype=np.float32)
    x = rows[:, :64].reshape(-1, 1, 8, 8) / 16.0
    y = rows[:, 64].astype(np.float32)
    return x, y


def build_net():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(channels=16, kernel_size=3, padding=1, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Conv2D(channels=32, kernel_size=3, padding=1, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Flatten(),
                nn.Dense(64, activation="relu"),
                nn.Dense(10))
    return net


def progress(i, n, extra, width=30):
    done = int(width * i / n)
    sys.stdout.write(f"\r  [{'#' * done}{'.' * (width - done)}] {i}/{n} {extra}")
    sys.stdout.flush()


def evaluate(net, x, y, ctx, batch_size=256):
    metric = mx.metric.Accuracy()
    for i in range(0, len(x), batch_size):
        data = mx.nd.array(x[i:i + batch_size], ctx=ctx)
        label = mx.nd.array(y[i:i + batch_size], ctx=ctx)
        metric.update([label], [net(data)])
    return metric.get()[1]


def save_curves(history, path):
    """Draw loss and accuracy curves into a PNG with OpenCV (skipped if cv2 is missing)."""
    try:
        import cv2
    except ImportError:
        print("opencv not installed: skipping the training-curve plot")
        return False
    h, w, pad = 360, 640, 40
    img = np.full((h, w, 3), 255, np.uint8)
    cv2.rectangle(img, (pad, pad), (w - pad, h - pad), (0, 0, 0), 1)
    series = [("train loss", [r["loss"] for r in history], (0, 0, 255)),
              ("train acc", [r["train_acc"] for r in history], (255, 0, 0)),
              ("test acc", [r["test_acc"] for r in history], (0, 160, 0))]
    top = max(max(s[1]) for s in series) or 1.0
    n = len(history)
    for k, (name, vals, color) in enumerate(series):
        pts = [(int(pad + (w - 2 * pad) * i / max(n - 1, 1)),
                int(h - pad - (h - 2 * pad) * v / top)) for i, v in enumerate(vals)]
        for a, b in zip(pts, pts[1:]):
            cv2.line(img, a, b, color, 2)
        cv2.putText(img, name, (pad + 10, pad + 20 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    color, 1)
    cv2.putText(img, "epoch", (w // 2 - 20, h - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    cv2.imwrite(path, img)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.005)
    parser.add_argument("--out", default=os.path.join(HERE, "..", "out"))
    parser.add_argument("--min-acc", type=float, default=0.95,
                        help="fail when the held-out accuracy ends below this")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mx.random.seed(42)
    np.random.seed(42)
    ctx = mx.gpu() if mx.context.num_gpus() > 0 else mx.cpu()

    x, y = load_digits(os.path.join(HERE, "data", "digits.csv.gz"))
    perm = np.random.RandomState(0).permutation(len(x))
    x, y = x[perm], y[perm]
    n_test = len(x) // 5
    x_test, y_test, x_train, y_train = x[:n_test], y[:n_test], x[n_test:], y[n_test:]
    print(f"digits: {len(x_train)} training and {len(x_test)} test images of 8x8, on {ctx}")

    train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(x_train, y_train),
                                       batch_size=args.batch_size, shuffle=True)
    net = build_net()
    net.initialize(mx.init.Xavier(), ctx=ctx)
    net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": args.lr})
    history = []
    nbatch = len(train_data)
    for epoch in range(args.epochs):
        metric = mx.metric.Accuracy()
        total_loss, seen, tic = 0.0, 0, time.time()
        for i, (data, label) in enumerate(train_data):
            data, label = data.as_in_context(ctx), label.as_in_context(ctx)
            with autograd.record():
                out = net(data)
                loss = loss_fn(out, label)
            loss.backward()
            trainer.step(data.shape[0])
            metric.update([label], [out])
            total_loss += loss.sum().asscalar()
            seen += data.shape[0]
            progress(i + 1, nbatch, f"loss {total_loss / seen:.4f}")
        elapsed = time.time() - tic
        test_acc = evaluate(net, x_test, y_test, ctx)
        row = {"loss": total_loss / seen, "train_acc": metric.get()[1], "test_acc": test_acc}
        history.append(row)
        print(f"\rEpoch {epoch + 1:2d}/{args.epochs}: loss {row['loss']:.4f}  train acc "
              f"{row['train_acc']:.4f}  test acc {test_acc:.4f}  {seen / elapsed:8.1f} img/s"
              + " " * 20)

    final_acc = history[-1]["test_acc"]
    print(f"held-out test accuracy: {final_acc:.4f}")
    if final_acc < args.min_acc:
        raise SystemExit(f"FAILED: test accuracy {final_acc:.4f} < {args.min_acc}")

    prefix = os.path.join(args.out, "digits-lenet")
    net.export(prefix, epoch=0)
    print(f"exported {prefix}-symbol.json and {prefix}-0000.params")
    test = mx.nd.array(x_test, ctx=ctx)
    p_gluon = net(test).asnumpy()
    imported = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"],
                                         prefix + "-0000.params", ctx=ctx)
    p_imported = imported(test).asnumpy()
    mod = mx.mod.Module.load(prefix, 0, data_names=("data",), label_names=None, context=ctx)
    mod.bind(data_shapes=[("data", test.shape)], for_training=False)
    mod.forward(mx.io.DataBatch([test]), is_train=False)
    p_module = mod.get_outputs()[0].asnumpy()
    for name, p in (("SymbolBlock.imports", p_imported), ("Module", p_module)):
        if not np.allclose(p, p_gluon, rtol=1e-4, atol=1e-5):
            raise SystemExit(f"FAILED: {name} predictions differ from the Gluon network")
        if (p.argmax(1) != p_gluon.argmax(1)).any():
            raise SystemExit(f"FAILED: {name} predicted classes differ")
    print("Gluon, SymbolBlock.imports and Module give the same predictions")

    if save_curves(history, os.path.join(args.out, "training_curves.png")):
        print(f"saved {os.path.join(args.out, 'training_curves.png')}")
    try:
        sym = mx.sym.load(prefix + "-symbol.json")
        dot = mx.viz.plot_network(sym, shape={"data": (1, 1, 8, 8)})
        dot.render(os.path.join(args.out, "network"), format="png", cleanup=True)
        print(f"saved {os.path.join(args.out, 'network.png')}")
    except Exception as e:  # graphviz (python package or dot binary) is optional
        print(f"network drawing skipped: {e}")


if __name__ == "__main__":
    main()
