"""Key-value stores for data-parallel and distributed training (``mx.kv``).

Store types
-----------
``local``, ``device``, ``nccl``
    Sum the values pushed from the contexts of one process.
``dist_sync``, ``dist_device_sync``
    Also sum across worker processes, with an allreduce over ``torch.distributed`` (Gloo on
    CPU, NCCL for GPU tensors with ``dist_device_sync``). Every worker sees identical values;
    with ``set_optimizer`` each worker applies the same update to the same summed gradient,
    so weights stay identical without any server process.
``dist_async``
    Parameter servers (:mod:`mxnet.kvstore_server`) own shards of the keys (arrays of at
    least ``MXNET_KVSTORE_BIGARRAY_BOUND`` elements are split across all servers), apply each
    push as it arrives (with the optimizer that ``set_optimizer`` pickles to them) and answer
    pulls with their latest values; workers never wait for each other.

Running a job
-------------
On one host::

    python -m mxnet.tools.launch -n 2 python train.py --kv-store dist_sync
    python -m mxnet.tools.launch -n 2 -s 2 python train.py --kv-store dist_async

On several hosts, list them in a host file (one per line; the first one is the rendezvous
master and runs server 0) and let ``launch`` start the processes over ssh, round robin, in
the same directory (``--sync-dst-dir DIR`` to choose another; ``--env NAME`` passes a
variable through)::

    python -m mxnet.tools.launch -n 4 -s 2 --launcher ssh -H hosts python train.py

``dist_sync`` scripts also run directly under ``torchrun`` (one ``torchrun`` per host)::

    torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \\
        --rdzv-endpoint HOST0:29500 train.py --kv-store dist_sync

Environment
-----------
``RANK``, ``WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``
    The worker group of ``dist_sync`` stores (set by ``torchrun`` and by ``launch``).
``DMLC_ROLE`` (``worker``/``server``), ``DMLC_WORKER_ID``, ``DMLC_SERVER_ID``,
``DMLC_NUM_WORKER``, ``DMLC_NUM_SERVER``, ``DMLC_PS_ROOT_URI``, ``DMLC_PS_ROOT_PORT``
    MXNet's variables, also set by ``launch``. Scripts started with only these find their
    peers too: the ``torchrun`` variables are derived from them (with servers in the job,
    the workers' group meets at ``DMLC_PS_ROOT_PORT + 1``, server 0 holding the root port).
    ``DMLC_NODE_HOST`` is the address a server advertises on multi-host jobs.
``MXNET_KVSTORE_TIMEOUT`` (seconds, default 300)
    Bounds joining the group, every collective, every server request and every barrier: a
    worker or server that dies or never arrives makes the others raise ``MXNetError``
    within it instead of hanging. ``launch`` gives the surviving workers this long (plus
    5 s, at most 60 s; ``--grace``) to exit after one fails, then stops the job.
``MXNET_KVSTORE_BIGARRAY_BOUND`` (elements, default 1000000)
    ``dist_async`` arrays at least this large are split across all servers.
``MXNET_KVSTORE_CHUNK_BYTES`` (default 4 MiB; the same on every worker)
    ``dist_sync`` reduces a single pushed array in chunks of this size, asynchronously, so
    that copies into and out of the store overlap the communication.

Priority and overlap with backward
----------------------------------
``priority`` is accepted everywhere and ignored: communication starts when ``push`` (or
``pushpull``) is called, not while ``backward`` runs (the gradients are complete when
``backward`` returns, and MXNet's ``grad_req='add'`` accumulation forbids reducing them any
earlier). What does overlap: a ``dist_sync`` ``push``/``pushpull`` of a list of keys starts
the reductions of every key (in ``MXNET_KVSTORE_CHUNK_BYTES`` chunks) before finishing them
in order, so copying into the store and the optimizer update of one key run while later
keys are still being reduced; ``gluon.Trainer.step`` pushes all its gradients in one such
call. ``Module.update`` still pushes one parameter at a time.

Examples
--------
>>> kv = mx.kv.create('local')
>>> kv.init(0, mx.nd.zeros((2,)))
>>> kv.push(0, [mx.nd.ones((2,)), mx.nd.ones((2,))])
>>> out = mx.nd.zeros((2,))
>>> kv.pull(0, out=out)
>>> out.asnumpy().tolist()
[2.0, 2.0]
"""

from .base import KVStoreBase, TestStore, create
from .kvstore import KVStore
from .kvstore_server import KVStoreServer

__all__ = ["KVStore", "KVStoreBase", "KVStoreServer", "TestStore", "create"]
