# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# waf build of the pfabric module, for ns-3 trees up to 3.35 (CMake trees read CMakeLists.txt).
# Keep these lists identical to CMakeLists.txt: test/python/test_build_files.py checks it.


def build(bld):
    module = bld.create_ns3_module(
        'pfabric', ['internet', 'traffic-control', 'point-to-point', 'applications'])
    module.source = [
        'helper/pfabric-atomic-file.cc',
        'helper/pfabric-experiment.cc',
        'helper/pfabric-fabric-helper.cc',
        'helper/pfabric-fabric-routing-helper.cc',
        'helper/pfabric-fat-tree-helper.cc',
        'helper/pfabric-flow-list.cc',
        'helper/pfabric-flow-size-distribution.cc',
        'helper/pfabric-incast.cc',
        'helper/pfabric-leaf-spine-helper.cc',
        'helper/pfabric-link-helper.cc',
        'helper/pfabric-command-line.cc',
        'helper/pfabric-custom-scheme.cc',
        'helper/pfabric-measurement-window.cc',
        'helper/pfabric-stop-report.cc',
        'helper/pfabric-preset.cc',
        'helper/pfabric-priority-levels.cc',
        'helper/pfabric-queue-disc-helper.cc',
        'helper/pfabric-results-writer.cc',
        'helper/pfabric-scheme-helper.cc',
        'helper/pfabric-single-switch-helper.cc',
        'model/pfabric-baseline-tcp-socket.cc',
        'model/pfabric-buffer.cc',
        'model/pfabric-fabric-routing.cc',
        'model/pfabric-flow-application.cc',
        'model/pfabric-priority-policy.cc',
        'model/pfabric-switch.cc',
        'model/pfabric-line-rate-congestion-ops.cc',
        'model/pfabric-link-channel.cc',
        'model/pfabric-link-net-device.cc',
        'model/pfabric-level-queue-disc.cc',
        'model/pfabric-class-queue-disc.cc',
        'model/pfabric-class-tag.cc',
        'model/pfabric-tcp-socket.cc',
        'model/pfabric-min-tcp-socket.cc',
        'model/pfabric-priority-tag.cc',
        'model/pfabric-queue-disc.cc',
        'model/pfabric-tcp-demux.cc',
        'model/pfabric-tcp-socket-factory.cc',
        'model/pfabric-transport-ports.cc',
    ]

    # Provenance for meta.json and the shipped workloads' directory (CMakeLists.txt sets the same).
    module.env.append_value('DEFINES', [
        'PFABRIC_VERSION="%s"' % bld.path.find_node('VERSION').read().strip(),
        'PFABRIC_NS3_VERSION="%s"' % bld.env['VERSION'],
        'PFABRIC_SOURCE_WORKLOADS_DIR="%s"' % bld.path.find_dir('workloads').abspath(),
    ])

    module_test = bld.create_ns3_module_test_library('pfabric')
    module_test.source = [
        'test/pfabric-test-suite.cc',
        'test/pfabric-custom-scheme-test.cc',
        'test/pfabric-deadlines-test.cc',
        'test/pfabric-fabric-test.cc',
        'test/pfabric-flow-application-test.cc',
        'test/pfabric-incast-test.cc',
        'test/pfabric-link-test.cc',
        'test/pfabric-levels-test.cc',
        'test/pfabric-classes-test.cc',
        'test/pfabric-queue-disc-helper-test.cc',
        'test/pfabric-queue-disc-test.cc',
        'test/pfabric-preemption-test.cc',
        'test/pfabric-priority-policy-test.cc',
        'test/pfabric-transport-test.cc',
        'test/pfabric-stop-report-test.cc',
        'test/pfabric-window-test.cc',
        'test/pfabric-workload-test.cc',
    ]

    headers = bld(features='ns3header')
    headers.module = 'pfabric'
    headers.source = [
        'helper/pfabric-atomic-file.h',
        'helper/pfabric-experiment.h',
        'helper/pfabric-fabric-helper.h',
        'helper/pfabric-fabric-routing-helper.h',
        'helper/pfabric-fat-tree-helper.h',
        'helper/pfabric-flow-list.h',
        'helper/pfabric-flow-size-distribution.h',
        'helper/pfabric-incast.h',
        'helper/pfabric-leaf-spine-helper.h',
        'helper/pfabric-link-helper.h',
        'helper/pfabric-command-line.h',
        'helper/pfabric-custom-scheme.h',
        'helper/pfabric-measurement-window.h',
        'helper/pfabric-stop-report.h',
        'helper/pfabric-preset.h',
        'helper/pfabric-priority-levels.h',
        'helper/pfabric-queue-disc-helper.h',
        'helper/pfabric-results-writer.h',
        'helper/pfabric-scheme-helper.h',
        'helper/pfabric-single-switch-helper.h',
        'model/pfabric-baseline-tcp-socket.h',
        'model/pfabric-buffer.h',
        'model/pfabric-compat.h',
        'model/pfabric-fabric-routing.h',
        'model/pfabric-flow-application.h',
        'model/pfabric-priority-policy.h',
        'model/pfabric-switch.h',
        'model/pfabric-line-rate-congestion-ops.h',
        'model/pfabric-link-channel.h',
        'model/pfabric-link-net-device.h',
        'model/pfabric-level-queue-disc.h',
        'model/pfabric-class-queue-disc.h',
        'model/pfabric-class-tag.h',
        'model/pfabric-tcp-socket.h',
        'model/pfabric-min-tcp-socket.h',
        'model/pfabric-priority-tag.h',
        'model/pfabric-queue-disc.h',
        'model/pfabric-tcp-demux.h',
        'model/pfabric-tcp-socket-factory.h',
        'model/pfabric-transport-ports.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
