// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MareyFindings.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace npuscope::query {

namespace {

int64_t medianOf(std::vector<int64_t>& v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median of sorted without its i-th element (size ≥ 2).
int64_t medianWithout(const std::vector<int64_t>& sorted, size_t i)
{
    const size_t m = sorted.size() - 1;
    auto at = [&](size_t k) { return k < i ? sorted[k] : sorted[k + 1]; };
    return m % 2 ? at(m / 2) : (at(m / 2 - 1) + at(m / 2)) / 2;
}

bool considered(MareyOpKind kind) { return kind == MareyOpKind::Compute || kind == MareyOpKind::Communication; }

// The median duration of each op name across every device of every stage (the stage-wide findings' reference).
std::vector<int64_t> nameMedians(const MareyStep& step)
{
    std::vector<std::vector<int64_t>> byName(step.names.size());
    for (const auto& dev : step.devices) {
        for (const auto& op : dev.ops) {
            if (considered(op.kind))
                byName[op.name].push_back(op.end - op.start);
        }
    }
    std::vector<int64_t> nameMedian(step.names.size(), 0);
    for (size_t n = 0; n < byName.size(); ++n)
        nameMedian[n] = medianOf(byName[n]);
    return nameMedian;
}

// One device's instance of an op: its duration and share of the device's step span.
struct Seen {
    int device;
    int64_t dur;
    double share;
    MareyOpKind kind;
};

// The considered ops of one stage's devices.
struct StageOps {
    std::vector<int64_t> spans; // step span of each device with ops
    // Per (name << 32 | occurrence), in that order: each device with the op.
    std::map<uint64_t, std::vector<Seen>> ops;
};

StageOps collectStageOps(const MareyStep& step, const MareyStage& stage)
{
    StageOps out;
    for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
        const auto& dev = step.devices[d];
        if (!dev.hasOps())
            continue;
        const int64_t span = std::max<int64_t>(1, dev.stepEnd - dev.stepStart);
        out.spans.push_back(span);
        for (const auto& op : dev.ops) {
            if (!considered(op.kind))
                continue;
            const int64_t dur = op.end - op.start;
            out.ops[(uint64_t(op.name) << 32) | op.occurrence].push_back(
                { d, dur, static_cast<double>(dur) / static_cast<double>(span), op.kind });
        }
    }
    return out;
}

// Per device of a stage: each compared compute op's duration ÷ its peers' median, and the sums.
struct DeviceRatios {
    std::vector<double> ratios;
    int64_t dur = 0, ref = 0;
    int longOps = 0;
    double worst = 0;
    uint32_t worstName = 0, worstOccurrence = 0;
};

// One stage's findings in the making: what they are judged against, where they go, and the devices' ratios so far.
struct StageScan {
    int stage;
    const MareyThresholds& t;
    const std::vector<int64_t>& nameMedian;
    int64_t medianSpan; // the median step span of the stage's devices with ops
    int withOps; // the stage's devices with ops
    std::vector<MareyFinding>& all;
    MareyFindingList& out;
    std::map<int, DeviceRatios> perDevice;
};

// A StageWide finding when the op (name, occurrence) is long on (almost) every device of the stage that has it.
void findStageWide(
    StageScan& scan, uint32_t name, uint32_t occurrence, const std::vector<Seen>& seen, int64_t stageMedian)
{
    const MareyThresholds& t = scan.t;
    int longCount = 0;
    for (const auto& x : seen) {
        const bool longHere = x.dur >= t.deviceMinNs
            && (static_cast<double>(x.dur) >= t.stageRatio * static_cast<double>(scan.nameMedian[name])
                || x.share >= t.stageStepShare);
        longCount += longHere ? 1 : 0;
    }
    const bool stageWide = scan.withOps > 0 && longCount >= t.stageDeviceFraction * scan.withOps;
    if (!stageWide)
        return;
    MareyFinding f;
    f.kind = MareyFindingKind::StageWide;
    f.stage = scan.stage;
    f.name = name;
    f.occurrence = occurrence;
    f.opKind = seen.front().kind;
    f.durationNs = stageMedian;
    f.referenceNs = scan.nameMedian[name];
    f.stepShare = static_cast<double>(stageMedian) / static_cast<double>(scan.medianSpan);
    f.devicesLong = longCount;
    f.devicesWithOp = static_cast<int>(seen.size());
    scan.all.push_back(f);
    ++scan.out.stageWideTotal;
}

// Each device's instance of the op against the median of the other devices' (sorted: every device's duration,
// ascending): adds compute ops to the device's ratios, and a OneDevice finding for a compute op long on that device.
void compareWithPeers(StageScan& scan, uint32_t name, uint32_t occurrence, const std::vector<Seen>& seen,
    const std::vector<int64_t>& sorted)
{
    const MareyThresholds& t = scan.t;
    const auto kind = seen.front().kind;
    for (const auto& x : seen) {
        const size_t at = static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), x.dur) - sorted.begin());
        const int64_t peers = medianWithout(sorted, at);
        // A slow device is judged on compute: its collectives are short (the others wait for it).
        if (peers > 0 && kind == MareyOpKind::Compute) {
            auto& dr = scan.perDevice[x.device];
            const double ratio = static_cast<double>(x.dur) / static_cast<double>(peers);
            dr.ratios.push_back(ratio);
            dr.dur += x.dur;
            dr.ref += peers;
            dr.longOps += ratio >= t.deviceRatio ? 1 : 0;
            if (ratio > dr.worst) {
                dr.worst = ratio;
                dr.worstName = name;
                dr.worstOccurrence = occurrence;
            }
        }
        // One-device findings on compute only: a collective that is long on one device is that device
        // waiting for its peers, which names who waited, not who was slow.
        if (kind != MareyOpKind::Compute || x.dur < t.deviceMinNs
            || static_cast<double>(x.dur) < t.deviceRatio * static_cast<double>(peers))
            continue;
        MareyFinding f;
        f.kind = MareyFindingKind::OneDevice;
        f.stage = scan.stage;
        f.device = x.device;
        f.name = name;
        f.occurrence = occurrence;
        f.opKind = kind;
        f.durationNs = x.dur;
        f.referenceNs = peers;
        f.devicesWithOp = static_cast<int>(seen.size());
        scan.all.push_back(f);
        ++scan.out.oneDeviceTotal;
    }
}

// SlowDevice findings from the devices' ratios once every op of the stage is compared.
void findSlowDevices(StageScan& scan)
{
    for (auto& [device, dr] : scan.perDevice) {
        if (static_cast<int>(dr.ratios.size()) < scan.t.slowDeviceMinOps)
            continue;
        const double ratio = static_cast<double>(dr.dur) / static_cast<double>(std::max<int64_t>(1, dr.ref));
        if (ratio < scan.t.slowDeviceRatio)
            continue;
        MareyFinding f;
        f.kind = MareyFindingKind::SlowDevice;
        f.stage = scan.stage;
        f.device = device;
        f.name = dr.worstName;
        f.occurrence = dr.worstOccurrence;
        f.durationNs = dr.dur;
        f.referenceNs = dr.ref;
        f.timeRatio = ratio;
        f.opsCompared = static_cast<int>(dr.ratios.size());
        f.opsLong = dr.longOps;
        scan.all.push_back(f);
        ++scan.out.slowDeviceTotal;
    }
}

// Every finding of stage s, appended to all (each op in (name, occurrence) order), counted in out's totals.
void findInStage(const MareyStep& step, int s, const std::vector<int64_t>& nameMedian, const MareyThresholds& t,
    std::vector<MareyFinding>& all, MareyFindingList& out)
{
    StageOps stageOps = collectStageOps(step, step.stages[s]);
    const int withOps = static_cast<int>(stageOps.spans.size());
    const int64_t medianSpan = std::max<int64_t>(1, medianOf(stageOps.spans));
    StageScan scan { s, t, nameMedian, medianSpan, withOps, all, out, {} };
    for (const auto& [key, seen] : stageOps.ops) {
        const auto name = static_cast<uint32_t>(key >> 32);
        const auto occurrence = static_cast<uint32_t>(key & 0xffffffffu);
        std::vector<int64_t> sorted;
        sorted.reserve(seen.size());
        for (const auto& x : seen)
            sorted.push_back(x.dur);
        const int64_t stageMedian = medianOf(sorted); // sorts
        findStageWide(scan, name, occurrence, seen, stageMedian);
        if (static_cast<int>(seen.size()) >= t.minPeers + 1)
            compareWithPeers(scan, name, occurrence, seen, sorted);
    }
    findSlowDevices(scan);
}

// Slow devices first (largest time ratio), then stage-wide findings, longest first (their reference may be themselves
// when only one stage has the op), then one-device findings by excess over the peers. Each kind keeps at most
// maxFindings of all into out.findings.
void keepLargest(std::vector<MareyFinding>& all, const MareyThresholds& t, MareyFindingList& out)
{
    auto order = [](MareyFindingKind k) {
        return k == MareyFindingKind::SlowDevice ? 0 : (k == MareyFindingKind::StageWide ? 1 : 2);
    };
    auto rank = [](const MareyFinding& f) {
        switch (f.kind) {
        case MareyFindingKind::SlowDevice:
            return f.timeRatio;
        case MareyFindingKind::StageWide:
            return static_cast<double>(f.durationNs);
        case MareyFindingKind::OneDevice:
            break;
        }
        return static_cast<double>(f.excessNs());
    };
    std::stable_sort(all.begin(), all.end(), [&](const MareyFinding& a, const MareyFinding& b) {
        if (a.kind != b.kind)
            return order(a.kind) < order(b.kind);
        if (rank(a) != rank(b))
            return rank(a) > rank(b);
        return a.device != b.device ? a.device < b.device : a.name < b.name;
    });
    size_t kept[3] = { 0, 0, 0 };
    for (auto& f : all) {
        auto& n = kept[order(f.kind)];
        if (n++ < t.maxFindings)
            out.findings.push_back(f);
    }
}

} // namespace

MareyFindingList MareyFindings::find(const MareyStep& step, const MareyThresholds& t)
{
    MareyFindingList out;
    std::vector<MareyFinding> all;
    const std::vector<int64_t> nameMedian = nameMedians(step);
    for (int s = 0; s < static_cast<int>(step.stages.size()); ++s)
        findInStage(step, s, nameMedian, t, all, out);
    keepLargest(all, t, out);
    return out;
}

} // namespace npuscope::query
