/*
 * Copyright (c) 2026 The pfabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// pfabric-incast: partition-aggregate incast (PfabricIncast). An aggregator queries --workers
// workers, each answers --responseBytes at once; --queries queries, --interval apart, optionally
// over --background web search load on the same fabric, under --scheme. Every query's completion
// time against its ideal goes to queries.csv, every flow's to fct.csv, the provenance to
// meta.json, a summary to stdout. With no arguments: the hotnets12 fat-tree (54 hosts),
// MinTCP+pFabric, 32 workers of 10,000 B, 10 queries, no background. Every knob: --PrintHelp.
//
//   ./pfabric run pfabric-incast -- --scheme=tcp --workers=64
//   ./ns3 run "pfabric-incast --workers=256 --background=0.5"

#include "ns3/pfabric-incast.h"

#include "pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    using namespace ns3;
    const std::string program = "pfabric-incast";
    PfabricIncast incast;
    bool quiet = false;
    PfabricCommandLine cmd("pfabric-incast.cc");
    incast.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "nothing on stderr before the run", quiet);
    pfabric::PreferPriorityQueueScheduler();
    if (!pfabric::ParseCommandLine(cmd, program, argc, argv))
    {
        return 1;
    }
    std::string error;
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);

    if (!incast.Prepare(&error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    const std::string out = incast.GetExperiment().GetOutputDirectory();
    if (!quiet)
    {
        const PfabricIncast::Parameters& p = incast.GetParameters();
        std::cerr << program << ": " << p.queries << " queries of " << p.workers << " x "
                  << p.responseBytes << " B, " << incast.GetExperiment().GetSchemeName() << " on "
                  << incast.GetExperiment().GetFabric().GetNHosts() << " hosts, background "
                  << p.background << ", output in " << out << std::endl;
    }
    const double wallStart = pfabric::WallSeconds();
    incast.Install();
    incast.Run();
    PfabricJsonObject meta;
    meta.AddString("program", program)
        .AddString("command_line", pfabric::JoinCommandLine(argc, argv));
    incast.AddProvenance(meta);
    meta.AddNumber("wall_time_s", pfabric::WallSeconds() - wallStart)
        .AddString("scheduler", scheduler.Get().GetName())
        .AddString("allocator", pfabric::AllocatorName())
        .AddInteger("peak_rss_bytes", pfabric::PeakRssBytes());
    if (!incast.WriteResults(meta, &error))
    {
        std::cerr << program << ": error: " << error << std::endl;
        return 1;
    }
    std::cout << incast.Summarize();
    std::cout << "files: " << out << "/queries.csv, " << out << "/fct.csv, " << out << "/meta.json"
              << std::endl;
    return 0;
}
