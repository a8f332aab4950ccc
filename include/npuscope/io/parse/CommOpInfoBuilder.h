// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::io {

// One communication.json-style OPINFO object ({"Communication Time Info", "Communication Bandwidth
// Info"}) as read, before it becomes rows. Numbers keep what the file says (a numeric string counts
// as a number, as the importers always did); maps are ordered by key and a repeated key keeps its
// last value, as a JSON DOM would.
struct CommOpInfo {
    struct Number {
        std::optional<double> value;
        std::string text; // the number's digits as written (JSON numbers only), for exact epoch µs
    };
    struct Packet {
        bool valid = false; // an array whose first two elements are JSON numbers
        int64_t count = 0;
        double totalMs = 0;
    };
    struct Transport {
        bool isObject = false;
        std::optional<double> sizeMb, transitMs, bandwidthGbps, largePacketRatio;
        std::map<std::string, Packet> sizeDistribution; // key: package size text (MB)
    };
    bool hasTimeInfo = false; // "Communication Time Info" is an object
    Number start; // Start Timestamp(us)
    std::optional<double> elapseMs, transitMs, waitMs, syncMs, idleMs, idelMs, waitRatio, syncRatio;
    std::map<std::string, Transport> bandwidth; // "Communication Bandwidth Info" by transport
};

// Builds a CommOpInfo from JSON events (the SAX events of the op's object, from its start_object
// to its end_object), so a streaming importer and a DOM both fill it through the same rules.
// The caller sends exactly one value; numbers come with their text when a parser has it.
class CommOpInfoBuilder {
public:
    void reset();
    const CommOpInfo& info() const { return m_info; }
    CommOpInfo& info() { return m_info; }
    // True once the value sent was an object and it was closed.
    bool done() const { return m_frames.empty() && m_started; }

    void startObject();
    void endObject();
    void startArray();
    void endArray();
    void key(const std::string& k);
    void integer(int64_t value);
    void unsignedInteger(uint64_t value);
    void floating(double value, const std::string& text);
    void string(const std::string& s);
    void other(); // null, boolean, binary

    // Feeds a DOM value (the op object) through the same rules.
    static CommOpInfo fromJson(const nlohmann::json& op);

private:
    enum class Frame { Op, Time, Bandwidth, Transport, Distribution, PacketArray, Skip };
    // A scalar value: its number (JSON number or numeric string), its text when it is a JSON
    // number, and its int64 conversion (as nlohmann's get<int64_t>) when it is a JSON number.
    void scalar(std::optional<double> value, const std::string& text, std::optional<int64_t> asInt);
    void openValue(bool isObject, bool isArray);
    // A value of m_key starts inside the innermost open frame: resets what it replaces and returns the frame its
    // members are read with (Skip for a scalar).
    Frame enter(bool isObject, bool isArray);
    void setTimeField(std::optional<double> value, const std::string& text);
    void setTransportField(std::optional<double> value);

    CommOpInfo m_info;
    std::vector<Frame> m_frames;
    std::string m_key; // key of the value that comes next
    CommOpInfo::Transport* m_transport = nullptr;
    CommOpInfo::Packet* m_packet = nullptr;
    int m_packetElement = 0; // index of the next element of the packet array
    std::optional<int64_t> m_count; // its element 0 when a JSON number
    std::optional<double> m_totalMs; // its element 1 when a JSON number
    bool m_started = false;
};

} // namespace npuscope::io
