// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/CommOpInfoBuilder.h"

#include "npuscope/core/Decimal.h"

#include <cmath>
#include <string_view>

namespace npuscope::io {

namespace {

const std::string kNoText;

// A number member of a section, by its key.
template <typename Section> struct NumberField {
    std::string_view key;
    std::optional<double> Section::*member;
};

constexpr NumberField<CommOpInfo> kTimeFields[] = {
    { "Elapse Time(ms)", &CommOpInfo::elapseMs },
    { "Transit Time(ms)", &CommOpInfo::transitMs },
    { "Wait Time(ms)", &CommOpInfo::waitMs },
    { "Synchronization Time(ms)", &CommOpInfo::syncMs },
    { "Idle Time(ms)", &CommOpInfo::idleMs },
    { "Idel Time(ms)", &CommOpInfo::idelMs }, // older builds' spelling
    { "Wait Time Ratio", &CommOpInfo::waitRatio },
    { "Synchronization Time Ratio", &CommOpInfo::syncRatio },
};

constexpr NumberField<CommOpInfo::Transport> kTransportFields[] = {
    { "Transit Size(MB)", &CommOpInfo::Transport::sizeMb },
    { "Transit Time(ms)", &CommOpInfo::Transport::transitMs },
    { "Bandwidth(GB/s)", &CommOpInfo::Transport::bandwidthGbps },
    { "Large Packet Ratio", &CommOpInfo::Transport::largePacketRatio },
};

// Sets the member of section that key names; false when none has that key.
template <typename Section, size_t N>
bool setNumber(
    const NumberField<Section> (&fields)[N], std::string_view key, Section& section, std::optional<double> value)
{
    for (const auto& f : fields) {
        if (f.key == key) {
            section.*f.member = value;
            return true;
        }
    }
    return false;
}

} // namespace

void CommOpInfoBuilder::reset()
{
    m_info = {};
    m_frames.clear();
    m_key.clear();
    m_transport = nullptr;
    m_packet = nullptr;
    m_started = false;
}

void CommOpInfoBuilder::setTimeField(std::optional<double> value, const std::string& text)
{
    if (m_key == "Start Timestamp(us)") {
        m_info.start.value = value;
        m_info.start.text = value ? text : std::string();
    } else {
        setNumber(kTimeFields, m_key, m_info, value);
    }
}

void CommOpInfoBuilder::setTransportField(std::optional<double> value)
{
    if (!setNumber(kTransportFields, m_key, *m_transport, value) && m_key == "Size Distribution")
        m_transport->sizeDistribution.clear(); // not an object: no packets
}

CommOpInfoBuilder::Frame CommOpInfoBuilder::enter(bool isObject, bool isArray)
{
    switch (m_frames.back()) {
    case Frame::Skip:
        return Frame::Skip;
    case Frame::PacketArray:
        ++m_packetElement; // a container is an element, never a number
        return Frame::Skip;
    case Frame::Op:
        // A later section replaces an earlier one of the same name.
        if (m_key == "Communication Time Info") {
            auto bandwidth = std::move(m_info.bandwidth);
            m_info = {};
            m_info.bandwidth = std::move(bandwidth);
            m_info.hasTimeInfo = isObject;
            return isObject ? Frame::Time : Frame::Skip;
        }
        if (m_key == "Communication Bandwidth Info") {
            m_info.bandwidth.clear();
            return isObject ? Frame::Bandwidth : Frame::Skip;
        }
        return Frame::Skip;
    case Frame::Time:
        setTimeField(std::nullopt, kNoText);
        return Frame::Skip;
    case Frame::Bandwidth: {
        auto& t = m_info.bandwidth[m_key];
        t = {};
        t.isObject = isObject;
        if (!isObject)
            return Frame::Skip;
        m_transport = &t;
        return Frame::Transport;
    }
    case Frame::Transport:
        setTransportField(std::nullopt); // clears the packets for "Size Distribution"
        return isObject && m_key == "Size Distribution" ? Frame::Distribution : Frame::Skip;
    case Frame::Distribution: {
        auto& p = m_transport->sizeDistribution[m_key];
        p = {};
        if (!isArray)
            return Frame::Skip;
        m_packet = &p;
        m_packetElement = 0;
        m_count.reset();
        m_totalMs.reset();
        return Frame::PacketArray;
    }
    }
    return Frame::Skip;
}

void CommOpInfoBuilder::openValue(bool isObject, bool isArray)
{
    if (m_frames.empty()) {
        m_started = true;
        m_frames.push_back(isObject ? Frame::Op : Frame::Skip);
        return;
    }
    m_frames.push_back(enter(isObject, isArray));
}

void CommOpInfoBuilder::startObject() { openValue(true, false); }

void CommOpInfoBuilder::startArray() { openValue(false, true); }

void CommOpInfoBuilder::endObject()
{
    if (!m_frames.empty())
        m_frames.pop_back();
}

void CommOpInfoBuilder::endArray()
{
    if (m_frames.empty())
        return;
    if (m_frames.back() == Frame::PacketArray) {
        m_packet->valid = m_packetElement >= 2 && m_count && m_totalMs;
        if (m_packet->valid) {
            m_packet->count = *m_count;
            m_packet->totalMs = *m_totalMs;
        }
    }
    m_frames.pop_back();
}

void CommOpInfoBuilder::key(const std::string& k)
{
    if (!m_frames.empty() && m_frames.back() != Frame::Skip)
        m_key = k;
}

void CommOpInfoBuilder::scalar(std::optional<double> value, const std::string& text, std::optional<int64_t> asInt)
{
    if (m_frames.empty()) {
        m_started = true; // not an object: nothing to read
        return;
    }
    switch (m_frames.back()) {
    case Frame::PacketArray:
        // asInt is set for JSON numbers only: a numeric string is not a packet count.
        if (m_packetElement == 0 && asInt)
            m_count = asInt;
        else if (m_packetElement == 1 && asInt)
            m_totalMs = value;
        ++m_packetElement;
        break;
    case Frame::Time:
        setTimeField(value, text);
        break;
    case Frame::Transport:
        setTransportField(value);
        break;
    default:
        enter(false, false); // what a non-container value of this key replaces
        break;
    }
}

void CommOpInfoBuilder::integer(int64_t value) { scalar(static_cast<double>(value), std::to_string(value), value); }

void CommOpInfoBuilder::unsignedInteger(uint64_t value)
{
    scalar(static_cast<double>(value), std::to_string(value), static_cast<int64_t>(value));
}

void CommOpInfoBuilder::floating(double value, const std::string& text)
{
    // A number beyond int64 (a corrupt "1e40") has no integer form: converting it is undefined (UBSan, fuzz smoke).
    const bool fits = std::isfinite(value) && value >= -9.2e18 && value <= 9.2e18;
    scalar(value, text, fits ? std::optional<int64_t>(static_cast<int64_t>(value)) : std::nullopt);
}

void CommOpInfoBuilder::string(const std::string& s) { scalar(parseDouble(s), kNoText, std::nullopt); }

void CommOpInfoBuilder::other() { scalar(std::nullopt, kNoText, std::nullopt); }

namespace {

void feed(const nlohmann::json& v, CommOpInfoBuilder& b)
{
    switch (v.type()) {
    case nlohmann::json::value_t::object:
        b.startObject();
        for (auto it = v.begin(); it != v.end(); ++it) {
            b.key(it.key());
            feed(it.value(), b);
        }
        b.endObject();
        break;
    case nlohmann::json::value_t::array:
        b.startArray();
        for (const auto& e : v)
            feed(e, b);
        b.endArray();
        break;
    case nlohmann::json::value_t::number_integer:
        b.integer(v.get<int64_t>());
        break;
    case nlohmann::json::value_t::number_unsigned:
        b.unsignedInteger(v.get<uint64_t>());
        break;
    case nlohmann::json::value_t::number_float:
        b.floating(v.get<double>(), v.dump()); // a DOM has no source text: its shortest printed form
        break;
    case nlohmann::json::value_t::string:
        b.string(v.get_ref<const std::string&>());
        break;
    default:
        b.other();
        break;
    }
}

} // namespace

CommOpInfo CommOpInfoBuilder::fromJson(const nlohmann::json& op)
{
    CommOpInfoBuilder b;
    feed(op, b);
    return std::move(b.m_info);
}

} // namespace npuscope::io
