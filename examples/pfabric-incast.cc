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

#include "ns3/pfabric-experiment-program.h"

int
main(int argc, char* argv[])
{
    using namespace ns3;
    pfabric::ProgramShell shell("pfabric-incast", argc, argv);
    PfabricIncast incast;
    bool quiet = false;
    PfabricCommandLine& cmd = shell.GetCommandLine();
    incast.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "nothing on stderr before the run", quiet);
    if (!shell.Parse())
    {
        return 1;
    }
    std::string error;
    if (!incast.Prepare(&error))
    {
        return shell.Fail(error);
    }
    const std::string out = incast.GetExperiment().GetOutputDirectory();
    if (!quiet)
    {
        const PfabricIncast::Parameters& p = incast.GetParameters();
        std::cerr << shell.GetProgram() << ": " << p.queries << " queries of " << p.workers << " x "
                  << p.responseBytes << " B, " << incast.GetExperiment().GetSchemeName() << " on "
                  << incast.GetExperiment().GetFabric().GetNHosts() << " hosts, background "
                  << p.background << ", output in " << out << std::endl;
    }
    shell.StartClocks();
    const auto watchdog = shell.MakeWatchdog(incast.GetExperiment());
    watchdog->Start();
    incast.Install();
    incast.Run();
    watchdog->Stop();
    PfabricJsonObject meta = shell.StartMeta();
    incast.AddProvenance(meta);
    shell.FinishMeta(meta);
    if (!incast.WriteResults(meta, &error))
    {
        return shell.Fail(error);
    }
    std::cout << incast.Summarize();
    pfabric::ProgramShell::PrintFiles(out, {"queries.csv", "fct.csv", "meta.json"});
    return shell.Finish(0);
}
