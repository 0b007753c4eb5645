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
    bool strict = false;
    cmd.AddValue("strict",
                 "exit with status " + std::to_string(pfabric::EXIT_STOPPED_EARLY) +
                     " when the run stops before its flows are done (the safety limit "
                     "--maxSimTime, or nothing left to simulate), instead of 0; either way the "
                     "files are written, the summary and a warning say how many flows are "
                     "unfinished, and meta.json's stop says why",
                 strict);
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
    // As the FCT programs (the twelfth probe: a host out of connections ended the run at once,
    // its responses recorded as not started, exit 0).
    PfabricExperiment& experiment = incast.GetExperiment();
    if (!experiment.GetRunError().empty())
    {
        experiment.AbandonRunDirectory();
        return shell.Fail(experiment.GetRunError() + "; no results written");
    }
    PfabricJsonObject meta = shell.StartMeta();
    incast.AddProvenance(meta);
    shell.FinishMeta(meta);
    if (!incast.WriteResults(meta, &error))
    {
        return shell.Fail(error);
    }
    std::cout << incast.Summarize();
    const PfabricStopReport& stop = experiment.GetStopReport();
    if (stop.IsEarly())
    {
        std::cout << pfabric::DescribeUnfinished(experiment, strict) << std::endl;
    }
    pfabric::ProgramShell::PrintFiles(out, {"queries.csv", "fct.csv", "meta.json"});
    if (stop.IsEarly())
    {
        // Also under --quiet: queries.csv's empty times alone would read as results.
        std::cerr << shell.GetProgram() << ": warning: " << stop.Describe() << " (meta.json: stop)"
                  << std::endl;
        return shell.Finish(strict ? pfabric::EXIT_STOPPED_EARLY : 0);
    }
    return shell.Finish(0);
}
