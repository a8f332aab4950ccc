// SPDX-License-Identifier: Apache-2.0
// trace_view.json of a generated rank, streamed: the process and thread metadata, per step the device kernels and
// HCCL ops with their host launches (aten op, CANN API and the flows between them), the overlap analysis rows and
// counters, then Python frames around the launches until the file reaches the requested size. In the MindSpore form
// the framework process is "MindSpore", its launches flow to the device as mindspore_to_npu (string ids) and every X
// event's dur is a string too (FORMATS.md §1.2).
#include "ClusterGeneratorParts.h"

#include <cstdio>

namespace npuscope::testgen::detail {

namespace {

class TraceWriter {
public:
    TraceWriter(Out& out, const Cluster& c, int rank)
        : m_out(out)
        , m_c(c)
        , m_ms(c.options.format == OutputFormat::MindSpore)
    {
        m_hostPid = 2100000 + static_cast<int64_t>(mix(c.options.seed, static_cast<uint64_t>(rank)) % 900000u);
        m_device = rank % kRanksPerServer;
        m_cannTid = m_hostPid + 3;
    }

    void write(const std::vector<StepPlan>& steps)
    {
        m_out << '[';
        metadata();
        for (const auto& sp : steps)
            step(sp);
        filler(steps);
        m_out << ']';
    }

private:
    int64_t devicePid(int sort) const { return (m_hostPid << 10) | (static_cast<int64_t>(sort) << 5) | m_device; }

    void sep()
    {
        if (m_first)
            m_first = false;
        else
            m_out << ", ";
    }

    void meta(const char* name, int64_t pid, int64_t tid, const std::string& argsJson)
    {
        sep();
        m_out << "{\"ph\": \"M\", \"name\": \"" << name << "\", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"args\": " << argsJson << "}";
    }

    void process(int64_t pid, const char* name, const char* label, int sort)
    {
        meta("process_name", pid, 0, std::string("{\"name\": \"") + name + "\"}");
        meta("process_labels", pid, 0, std::string("{\"labels\": \"") + label + "\"}");
        meta("process_sort_index", pid, 0, "{\"sort_index\": " + std::to_string(sort) + "}");
    }

    void thread(int64_t pid, int64_t tid, const std::string& name, int64_t sort)
    {
        meta("thread_name", pid, tid, "{\"name\": \"" + name + "\"}");
        meta("thread_sort_index", pid, tid, "{\"sort_index\": " + std::to_string(sort) + "}");
    }

    void metadata()
    {
        process(m_hostPid, m_ms ? "MindSpore" : "Python", "CPU", 0);
        thread(m_hostPid, m_hostPid, "Thread " + std::to_string(m_hostPid), m_hostPid);
        process(devicePid(7), "CANN", "CPU", 7);
        thread(devicePid(7), m_cannTid, "Thread " + std::to_string(m_cannTid), m_cannTid);
        process(devicePid(13), "Ascend Hardware", "NPU", 13);
        thread(devicePid(13), 2, "Stream 2", 2);
        process(devicePid(14), "AI Core Freq", "NPU", 14);
        process(devicePid(15), "HCCL", "NPU", 15);
        thread(devicePid(15), 0, "Group 0 Communication", 0);
        thread(devicePid(15), 1, "Plane 0", 1);
        process(devicePid(17), "HBM", "NPU", 17);
        process(devicePid(23), "Overlap Analysis", "NPU", 23);
        thread(devicePid(23), 0, "Computing", 0);
        thread(devicePid(23), 1, "Communication", 1);
        thread(devicePid(23), 2, "Communication(Not Overlapped)", 2);
        thread(devicePid(23), 3, "Free", 3);
    }

    void x(const std::string& name, int64_t pid, int64_t tid, int64_t ts, int64_t dur, const char* cat,
        const std::string& args)
    {
        sep();
        m_out << "{\"ph\": \"X\", \"name\": \"" << name << "\", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"ts\": \"" << usText(ts) << (m_ms ? "\", \"dur\": \"" : "\", \"dur\": ") << usText(dur);
        if (m_ms)
            m_out << '"';
        if (cat)
            m_out << ", \"cat\": \"" << cat << "\"";
        if (!args.empty())
            m_out << ", \"args\": " << args;
        m_out << '}';
    }

    void flow(char ph, const char* name, const char* cat, const std::string& idJson, int64_t pid, int64_t tid,
        int64_t ts, bool bp)
    {
        sep();
        m_out << "{\"ph\": \"" << ph << "\", ";
        if (bp)
            m_out << "\"bp\": \"e\", ";
        m_out << "\"name\": \"" << name << "\", \"id\": " << idJson << ", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"ts\": \"" << usText(ts) << "\", \"cat\": \"" << cat << "\"}";
    }

    void counter(const char* name, int64_t pid, int64_t ts, const std::string& args)
    {
        sep();
        m_out << "{\"name\": \"" << name << "\", \"ts\": \"" << usText(ts) << "\", \"pid\": " << pid
              << ", \"tid\": 0, \"args\": " << args << ", \"ph\": \"C\"}";
    }

    // A device item (kernel or comm op) the host launches.
    struct Item {
        int64_t ts = 0, dur = 0;
        const Kernel* kernel = nullptr;
        const CommOp* op = nullptr;
    };

    std::string hostToDeviceId()
    {
        ++m_connection;
        // Kernel launches carry 68-bit composite ids (FORMATS.md §5.2); every fourth one a plain connection id.
        if (m_connection % 4 == 0)
            return std::to_string(900 + m_connection);
        char buf[48];
        std::snprintf(buf, sizeof buf, "4000%016llu",
            static_cast<unsigned long long>(4068119343529983ull
                + static_cast<unsigned long long>(m_connection) * 281474976710656ull % 5000000000000000ull));
        return buf;
    }

    void step(const StepPlan& sp)
    {
        const int64_t hw = devicePid(13);
        const int64_t hccl = devicePid(15);
        const int64_t ov = devicePid(23);
        x("ProfilerStep#" + std::to_string(sp.step), m_hostPid, m_hostPid, sp.start, sp.end - sp.start, "cpu_op",
            hostArgs());
        counter("AI Core Freq", devicePid(14), sp.start, "{\"MHz\": 1800}");
        for (int q = 0; q < 16; ++q) {
            const int64_t ts = sp.start + (sp.end - sp.start) * q / 16;
            const double v = 2000.0 + 40000.0 * unit(mix(static_cast<uint64_t>(ts), 3u));
            counter("HBM 0/Read", devicePid(17), ts, "{\"Read(MB/s)\": " + fixed(v, 3) + "}");
            counter("HBM 0/Write", devicePid(17), ts, "{\"Write(MB/s)\": " + fixed(v * 0.6, 3) + "}");
        }

        std::vector<Item> items;
        for (const auto& k : sp.kernels)
            items.push_back({ k.ts, k.dur, &k, nullptr });
        for (const auto& op : sp.ops)
            items.push_back({ op.ts, op.elapse(), nullptr, &op });
        std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.ts < b.ts; });

        int64_t prev = sp.start;
        int64_t idleFrom = sp.start; // end of the device work so far
        for (const auto& it : items) {
            std::string deviceName;
            int64_t devPid = hw;
            int64_t devTid = 2;
            if (it.kernel) {
                const Kernel& k = *it.kernel;
                const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
                deviceName = kernelName(k);
                x(deviceName, hw, 2, k.ts, k.dur, nullptr,
                    "{\"Model Id\": 4294967295, \"Task Type\": \""
                        + std::string(std::string(kt.core) == "AI_CORE" ? "AI_CORE" : "AI_VECTOR_CORE")
                        + "\", \"Physic Stream Id\": 2, \"Task Id\": " + std::to_string(k.taskId)
                        + ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, \"connection_id\": "
                        + std::to_string(k.taskId) + "}");
                x("Computing", ov, 0, k.ts, k.dur, nullptr, std::string());
            } else {
                const CommOp& op = *it.op;
                devPid = hccl;
                devTid = 0;
                deviceName = opKey(m_c, op);
                const auto& peerLink = op.links.size() > 1 ? op.links[1] : op.links.front();
                x(deviceName, hccl, 0, op.ts, op.elapse(), nullptr,
                    "{\"connection_id\": " + std::to_string(m_connection)
                        + ", \"model id\": 4294967295, \"data_type\": "
                          "\"BF16\", \"alg_type\": \"MESH-RING\", \"count\": "
                        + std::to_string(static_cast<int64_t>(peerLink.sizeMb * 5e5)) + "}");
                x("Notify_Wait", hccl, 1, op.ts, op.wait, nullptr,
                    "{\"notify_id\": 1, \"task type\": \"Notify Wait\", \"transport type\": \"LOCAL\"}");
                x("Memcpy", hccl, 1, op.ts + op.wait, op.transit, nullptr,
                    "{\"task type\": \"Memcpy\", \"src rank\": " + std::to_string(peerLink.srcLocal)
                        + ", \"dst rank\": " + std::to_string(peerLink.dstLocal) + ", \"transport type\": \""
                        + (peerLink.transport == "RDMA" ? "RDMA" : "SDMA") + "\", \"size(Byte)\": "
                        + std::to_string(static_cast<int64_t>(peerLink.sizeMb * 1e6)) + ", \"link type\": \""
                        + (peerLink.transport == "RDMA"         ? "ROCE"
                                : peerLink.transport == "LOCAL" ? "ON_CHIP"
                                                                : "HCCS")
                        + "\", \"bandwidth(GB/s)\": " + fixed(peerLink.bandwidth(), 4) + "}");
                x("Communication", ov, 1, op.ts, op.elapse(), nullptr, std::string());
                for (const auto& [a, b] : op.notOverlapped)
                    x("Communication(Not Overlapped)", ov, 2, a, b - a, nullptr, std::string());
            }
            // Host launch inside (prev, it.ts): cpu_op + CANN api + the flows to the device item.
            if (it.ts > prev + 10) {
                const int64_t lag = (it.ts - prev) / 2;
                const int64_t lead = std::min<int64_t>(lag, 200 * kUs);
                int64_t hs = it.ts - lead;
                int64_t hd = std::max<int64_t>(1, std::min<int64_t>(lead * 6 / 10, 25 * kUs));
                if (it.kernel && it.kernel->lateLaunch)
                    lateLaunchHost(it.ts, idleFrom, hs, hd);
                const char* kernelType = it.kernel ? kKernelTypes[static_cast<size_t>(it.kernel->type)].type : "";
                const std::string hostName = !it.kernel ? "Hccl" + it.op->type
                    : m_ms                              ? std::string("LaunchKernel::") + kernelType
                                                        : "aten::" + lowerType(kernelType);
                x(hostName, m_hostPid, m_hostPid, hs, hd, "cpu_op", hostArgs());
                // MindSpore's flow ids are strings of the device task's start (FORMATS.md §5.2), torch_npu's integers.
                const std::string flowId = m_ms ? "\"" + std::to_string(it.ts) + "\"" : std::to_string(it.ts);
                const char* flowName = m_ms ? "mindspore_to_npu" : "torch_to_npu";
                flow('s', flowName, "async_npu", flowId, m_hostPid, m_hostPid, hs, true);
                flow('f', flowName, "async_npu", flowId, devPid, devTid, it.ts, true);
                const std::string id = hostToDeviceId();
                const int64_t cd = std::max<int64_t>(1, hd / 2);
                // A late launch's CANN API is its last part, ending right before the kernel starts.
                const int64_t cs = it.kernel && it.kernel->lateLaunch ? hs + hd - cd - 1 : hs + hd / 4;
                const std::string api = it.kernel
                    ? "aclnn" + std::string(kKernelTypes[static_cast<size_t>(it.kernel->type)].type)
                    : it.op->type == "send"    ? "HcclSend"
                    : it.op->type == "receive" ? "HcclRecv"
                                               : "HcclAllReduce";
                x("AscendCL@" + api, devicePid(7), m_cannTid, cs, cd, nullptr,
                    "{\"Thread Id\": " + std::to_string(m_cannTid)
                        + ", \"Mode\": \"ACL_OP\", \"level\": \"acl\", \"id\": \"" + api
                        + "\", \"item_id\": \"0\", \"connection_id\": " + std::to_string(m_connection) + "}");
                const std::string hostToDevice = "HostToDevice" + id;
                flow('s', hostToDevice.c_str(), "HostToDevice", "\"" + id + "\"", devicePid(7), m_cannTid, cs, false);
                flow('f', hostToDevice.c_str(), "HostToDevice", "\"" + id + "\"", devPid, devTid, it.ts, true);
                m_hostOps.push_back({ prev, hs, hs + hd, it.ts });
            }
            prev = it.ts;
            idleFrom = std::max(idleFrom, it.ts + it.dur);
        }
        // Free: gaps in the union of device activity after Preparing.
        std::vector<std::pair<int64_t, int64_t>> spans;
        for (const auto& it : items)
            spans.emplace_back(it.ts, it.ts + it.dur);
        std::sort(spans.begin(), spans.end());
        int64_t cursor = sp.start + sp.prep;
        for (const auto& [a, b] : spans) {
            if (a > cursor)
                x("Free", ov, 3, cursor, a - cursor, nullptr, std::string());
            cursor = std::max(cursor, b);
        }
        if (sp.end > cursor)
            x("Free", ov, 3, cursor, sp.end - cursor, nullptr, std::string());
    }

    // --late-launch-rank: the host starts launching the kernel at deviceTs only once the device has gone idle
    // (idleFrom) and needs until just before deviceTs: the aten op [hs, hs + hd) covers the device's idle time.
    static void lateLaunchHost(int64_t deviceTs, int64_t idleFrom, int64_t& hs, int64_t& hd)
    {
        hs = std::min(idleFrom + 5 * kUs, deviceTs - 20 * kUs);
        hd = deviceTs - 2 * kUs - hs;
    }

    // Python frames around each host launch until the file reaches the requested size.
    void filler(const std::vector<StepPlan>&)
    {
        const auto target = static_cast<uint64_t>(m_c.options.traceMb * 1e6);
        if (m_hostOps.empty() || m_out.bytes() >= target)
            return;
        constexpr uint64_t kFrameBytes = 230;
        const uint64_t remaining = target - m_out.bytes();
        const int64_t depth
            = std::clamp<int64_t>(static_cast<int64_t>(remaining / (kFrameBytes * m_hostOps.size())), 0, 400);
        int64_t extra = static_cast<int64_t>(remaining / kFrameBytes) - depth * static_cast<int64_t>(m_hostOps.size());
        static const std::array<const char*, 6> kTorchFrames {
            "megatron/core/transformer/transformer_layer.py(184): forward",
            "megatron/core/transformer/attention.py(312): forward", "torch/nn/modules/module.py(1527): _call_impl",
            "megatron/core/tensor_parallel/layers.py(795): forward",
            "mindspeed/core/fusions/fused_layer_norm.py(61): forward",
            "torch/nn/modules/module.py(1518): _wrapped_call_impl"
        };
        static const std::array<const char*, 6> kMindSporeFrames { "mindformers/models/llama/llama.py(402): construct",
            "mindformers/modules/transformer/transformer.py(1296): construct", "mindspore/nn/cell.py(703): __call__",
            "mindformers/modules/layers.py(454): construct", "mindspore/common/api.py(957): staging_specialize",
            "mindspore/nn/cell.py(1040): _run_construct" };
        const auto& kFrames = m_ms ? kMindSporeFrames : kTorchFrames;
        int64_t pyId = 1;
        for (const auto& h : m_hostOps) {
            int64_t d = depth;
            if (extra > 0) {
                ++d;
                --extra;
            }
            const int64_t leftRoom = h.hostStart - h.lo - 1;
            const int64_t rightRoom = h.hi - 1 - h.hostEnd;
            if (leftRoom < 0 || rightRoom < 0)
                continue;
            for (int64_t j = 0; j < d; ++j) {
                const int64_t ml = leftRoom * (d - j) / (d + 1);
                const int64_t mr = rightRoom * (d - j) / (d + 1);
                x(kFrames[static_cast<size_t>((pyId + j) % static_cast<int64_t>(kFrames.size()))], m_hostPid, m_hostPid,
                    h.hostStart - ml, (h.hostEnd + mr) - (h.hostStart - ml), "python_function",
                    "{\"Python id\": " + std::to_string(pyId + j)
                        + ", \"Python parent id\": " + std::to_string(pyId + j - 1) + "}");
            }
            pyId += d;
        }
    }

    struct HostOp {
        int64_t lo, hostStart, hostEnd, hi;
    };

    // A host op's args: torch_npu's autograd fields; MindSpore writes none.
    std::string hostArgs() const { return m_ms ? std::string() : "{\"Sequence number\": -1, \"Fwd thread id\": 0}"; }

    Out& m_out;
    const Cluster& m_c;
    bool m_ms = false; // the MindSpore 2.x form
    int64_t m_hostPid = 0;
    int m_device = 0;
    int64_t m_cannTid = 0;
    bool m_first = true;
    int64_t m_connection = 0;
    std::vector<HostOp> m_hostOps;
};

} // namespace

void writeTraceView(Out& out, const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    TraceWriter(out, c, rank).write(steps);
}

} // namespace npuscope::testgen::detail
