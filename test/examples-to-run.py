#! /usr/bin/env python3
# A list of C++ examples to run in order to ensure that they remain buildable and runnable over
# time. Each tuple is (example command, run it under test.py?, run it under valgrind?).
# ./pfabric test and .ci/in-tree run them too.

cpp_examples = [
    ("pfabric-preemption", "True", "False"),
    ("pfabric-preemption --scheme=linerate --preset=sigcomm13", "True", "False"),
    ("pfabric-preemption --scheme=tcp", "True", "False"),
    ("pfabric-preemption --scheme=dctcp --preset=sigcomm13", "True", "False"),
    ("pfabric-fabric --topology=fattree --k=4", "True", "False"),
    ("pfabric-fabric --topology=leafspine --leaves=3 --hostsPerLeaf=4 --spines=2", "True", "False"),
    ("pfabric-websearch --flows=100 --quiet --out=results/ci-websearch", "True", "False"),
    ("pfabric-websearch --warmupFlows=20 --measureFlows=50 --topology=star --hosts=16 "
     "--load=0.4 --quiet --out=results/ci-websearch-window", "True", "False"),
    ("pfabric-websearch --flows=60 --scheme=custom --portQueueDisc=ns3::FqCoDelQueueDisc "
     "--portQueueDiscAttributes=Target=10us --tcpCongestionOps=ns3::TcpBic --quiet "
     "--out=results/ci-websearch-custom", "True", "False"),
    ("pfabric-datamining --flows=50 --scheme=tcp --maxSimTime=2ms --quiet "
     "--out=results/ci-datamining", "True", "False"),
    ("pfabric-incast --workers=16 --queries=3 --quiet --out=results/ci-incast", "True", "False"),
    ("pfabric-incast --workers=64 --queries=2 --scheme=tcp --background=0.3 --quiet "
     "--out=results/ci-incast-tcp", "True", "False"),
    ("pfabric-deadlines --flows=60 --deadlineFraction=0.5 --onMiss=terminate --quiet "
     "--out=results/ci-deadlines", "True", "False"),
    ("pfabric-classes --flows=60 --classWeights=3,1 --quiet --out=results/ci-classes", "True",
     "False"),
    ("pfabric-classes --flows=40 --classes=strict --quiet --out=results/ci-classes-strict",
     "True", "False"),
    ("pfabric-routing-cost --k=4 --packetsPerHost=50 --repeat=1", "True", "False"),
    ("pfabric-routing-cost --k=4 --packetsPerHost=50 --repeat=1 --queueDiscs --json", "True",
     "False"),
]

# examples/pfabric-python.py needs the standalone build and the ns-3 wheel's bindings
# (pfabric_analysis.bindings); test/python/analysis/test_bindings.py runs it.
python_examples: list[tuple[str, str]] = []
