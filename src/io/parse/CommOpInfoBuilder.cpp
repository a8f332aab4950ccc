// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/CommOpInfoBuilder.h"

#include "npuscope/core/Decimal.h"

#include <string_view>

namespace npuscope::io {

namespace {

const std::string kNoText;

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
    auto& t = m_info;
    if (m_key == "Start Timestamp(us)") {
        t.start.value = value;
        t.start.text = value ? text : std::string();
    } else if (m_key == "Elapse Time(ms)")
        t.elapseMs = value;
    else if (m_key == "Transit Time(ms)")
        t.transitMs = value;
    else if (m_key == "Wait Time(ms)")
        t.waitMs = value;
    else if (m_key == "Synchronization Time(ms)")
        t.syncMs = value;
    else if (m_key == "Idle Time(ms)")
        t.idleMs = value;
    else if (m_key == "Idel Time(ms)") // older builds' spelling
        t.idelMs = value;
    else if (m_key == "Wait Time Ratio")
        t.waitRatio = value;
    else if (m_key == "Synchronization Time Ratio")
        t.syncRatio = value;
}

void CommOpInfoBuilder::setTransportField(std::optional<double> value)
{
    auto& t = *m_transport;
    if (m_key == "Transit Size(MB)")
        t.sizeMb = value;
    else if (m_key == "Transit Time(ms)")
        t.transitMs = value;
    else if (m_key == "Bandwidth(GB/s)")
        t.bandwidthGbps = value;
    else if (m_key == "Large Packet Ratio")
        t.largePacketRatio = value;
    else if (m_key == "Size Distribution")
        t.sizeDistribution.clear(); // not an object: no packets
}

void CommOpInfoBuilder::openValue(bool isObject, bool isArray)
{
    if (m_frames.empty()) {
        m_started = true;
        m_frames.push_back(isObject ? Frame::Op : Frame::Skip);
        return;
    }
    Frame next = Frame::Skip;
    switch (m_frames.back()) {
    case Frame::Skip:
        break;
    case Frame::PacketArray:
        ++m_packetElement; // a container is an element, never a number
        break;
    case Frame::Op:
        if (m_key == "Communication Time Info") {
            auto bandwidth = std::move(m_info.bandwidth);
            m_info = {};
            m_info.bandwidth = std::move(bandwidth);
            m_info.hasTimeInfo = isObject;
            if (isObject)
                next = Frame::Time;
        } else if (m_key == "Communication Bandwidth Info") {
            m_info.bandwidth.clear();
            if (isObject)
                next = Frame::Bandwidth;
        }
        break;
    case Frame::Time:
        setTimeField(std::nullopt, kNoText);
        break;
    case Frame::Bandwidth: {
        auto& t = m_info.bandwidth[m_key];
        t = {};
        t.isObject = isObject;
        if (isObject) {
            m_transport = &t;
            next = Frame::Transport;
        }
        break;
    }
    case Frame::Transport:
        if (m_key == "Size Distribution") {
            m_transport->sizeDistribution.clear();
            if (isObject)
                next = Frame::Distribution;
        } else {
            setTransportField(std::nullopt);
        }
        break;
    case Frame::Distribution: {
        auto& p = m_transport->sizeDistribution[m_key];
        p = {};
        if (isArray) {
            m_packet = &p;
            m_packetElement = 0;
            m_count.reset();
            m_totalMs.reset();
            next = Frame::PacketArray;
        }
        break;
    }
    }
    m_frames.push_back(next);
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
    case Frame::Skip:
        break;
    case Frame::PacketArray:
        // asInt is set for JSON numbers only: a numeric string is not a packet count.
        if (m_packetElement == 0 && asInt)
            m_count = asInt;
        else if (m_packetElement == 1 && asInt)
            m_totalMs = value;
        ++m_packetElement;
        break;
    case Frame::Op:
        if (m_key == "Communication Time Info") {
            auto bandwidth = std::move(m_info.bandwidth);
            m_info = {};
            m_info.bandwidth = std::move(bandwidth);
        } else if (m_key == "Communication Bandwidth Info") {
            m_info.bandwidth.clear();
        }
        break;
    case Frame::Time:
        setTimeField(value, text);
        break;
    case Frame::Bandwidth: {
        auto& t = m_info.bandwidth[m_key];
        t = {};
        break;
    }
    case Frame::Transport:
        setTransportField(value);
        break;
    case Frame::Distribution:
        m_transport->sizeDistribution[m_key] = {};
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
    scalar(value, text, static_cast<int64_t>(value));
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
