<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Advice</name>
    <message>
        <source>%1, … (%2 ranks)</source>
        <translation>%1、…（共 %2 张卡）</translation>
    </message>
    <message>
        <source>Σwait ÷ (Σwait + Σtransit) of a rank&apos;s communication ops &gt; %1</source>
        <translation>单卡通信算子的 Σ等待 ÷ (Σ等待 + Σ传输) &gt; %1</translation>
    </message>
    <message>
        <source>Rank %1 waits %2 ms in its communication ops against %3 ms of transfer (wait ratio %4, synchronisation ratio %5; the wait is %6 % of its step time); ranks above %7: %8.</source>
        <translation>卡 %1 在通信算子中等待 %2 ms，而传输只有 %3 ms（等待比 %4，同步比 %5；等待占其迭代时间的 %6 %）；等待比高于 %7 的卡：%8 张。</translation>
    </message>
    <message>
        <source>The ranks wait for a peer that arrives late: find it (slow_rank, the Time overview) or the link that delays the transfer (slow_link). A synchronisation ratio above 0.2 on the waiting rank points to a slow rank, a lower one to the links.</source>
        <translation>这些卡在等待迟到的对端：找出该卡（slow_rank、时间概览）或拖慢传输的链路（slow_link）。等待方的同步比高于 0.2 指向慢卡，低于则指向链路。</translation>
    </message>
    <message>
        <source>share of %1 transfers smaller than %2 MB &gt; %3</source>
        <translation>小于 %2 MB 的 %1 传输占比 &gt; %3</translation>
    </message>
    <message>
        <source>%1 of %2 %3 transfers (%4 %) are smaller than %5 MB; they take %6 ms in total.</source>
        <translation>%2 次 %3 传输中有 %1 次（%4 %）小于 %5 MB，共耗时 %6 ms。</translation>
    </message>
    <message>
        <source>Many small transfers are bound by latency and host launches: fuse gradients into larger buckets, raise the batch size or gradient accumulation, prefer ZeRO-1/2 to ZeRO-3 where memory allows, use fused optimizers.</source>
        <translation>大量小包传输受时延和 Host 下发限制：把梯度融合成更大的桶，增大 batch size 或梯度累积，内存允许时优先用 ZeRO-1/2 而非 ZeRO-3，使用融合优化器。</translation>
    </message>
    <message>
        <source>share of %1 transfers of at least 1 MB whose size is not a multiple of %2 B &gt; %3</source>
        <translation>不小于 1 MB 且大小不是 %2 B 整数倍的 %1 传输占比 &gt; %3</translation>
    </message>
    <message>
        <source>%1 of %2 %3 transfers of at least 1 MB are not a multiple of 512 B.</source>
        <translation>%2 次不小于 1 MB 的 %3 传输中有 %1 次大小不是 512 B 的整数倍。</translation>
    </message>
    <message>
        <source>Unaligned transfers use the DMA engines less efficiently: pad tensors (hidden sizes, bucket sizes) to multiples of 512 B.</source>
        <translation>未对齐的传输会降低 DMA 引擎效率：把张量（hidden size、桶大小）补齐到 512 B 的整数倍。</translation>
    </message>
    <message>
        <source>RDMA transit time of one op &gt; %1 ms</source>
        <translation>单个算子的 RDMA 传输时间 &gt; %1 ms</translation>
    </message>
    <message>
        <source>RDMA transfers of %1 ops take up to %2 ms on ranks %3: one transfer this long means the NIC retransmitted.</source>
        <translation>%1 个算子的 RDMA 传输在卡 %3 上最长耗时 %2 ms：单次传输如此之长说明网卡发生了重传。</translation>
    </message>
    <message>
        <source>Check the RDMA network: link flaps and error counters on the NICs and switches, PFC / ECN configuration, HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT.</source>
        <translation>检查 RDMA 网络：网卡和交换机上的链路闪断与错误计数、PFC / ECN 配置、HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT。</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算（Computing）</translation>
    </message>
    <message>
        <source>Compare the operators of the slowest and the fastest rank (Operators view, compare ranks): a different kernel mix points to uneven data (sequence lengths, MoE routing), equal kernels running longer to the device (frequency, temperature, a degraded card).</source>
        <translation>对比最慢卡与最快卡的算子（算子视图，对比卡）：核函数构成不同说明数据不均衡（序列长度、MoE 路由）；相同核函数运行更久则指向设备本身（频率、温度、性能下降的卡）。</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲（Free）</translation>
    </message>
    <message>
        <source>Free is device idle time that is neither computing nor communication: on the rank with the most Free look at the host side of the timeline (late kernel launches, Python overhead, synchronisation, CPU binding).</source>
        <translation>空闲时间（Free）是既非计算也非通信的设备空闲时间：在空闲时间最多的卡上查看时间线的 Host 侧（核函数下发过晚、Python 开销、同步、CPU 绑核）。</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped)</source>
        <translation>未被掩盖的通信（Communication(Not Overlapped)）</translation>
    </message>
    <message>
        <source>Communication that is not hidden differs between ranks doing the same work: usually the ranks waiting for a slow peer (see slow_rank) or a slow link (see slow_link); check the wait ratio per rank.</source>
        <translation>执行相同工作的卡之间未被掩盖的通信时间不同：通常是这些卡在等待慢对端（见 slow_rank）或慢链路（见 slow_link）；请查看各卡的等待比。</translation>
    </message>
    <message>
        <source>(max − min) ÷ mean of %1 over comparable ranks (same stage, same TP position) &gt; %2</source>
        <translation>同类卡（同一流水线阶段、同一 TP 位置）上 %1 的 (最大 − 最小) ÷ 均值 &gt; %2</translation>
    </message>
    <message>
        <source>%1 differs by %2 % of its mean between ranks doing the same work: rank %3 %4 ms, rank %5 %6 ms (mean %7 ms over ranks %8; %9 groups of comparable ranks are above the threshold).</source>
        <translation>执行相同工作的卡之间，%1 相差其均值的 %2 %：卡 %3 为 %4 ms，卡 %5 为 %6 ms（卡 %8 的均值 %7 ms；共 %9 组同类卡超过阈值）。</translation>
    </message>
    <message>
        <source>%1 differs by %2 % of its mean between ranks doing the same work: rank %3 %4 ms, rank %5 %6 ms (mean %7 ms over ranks %8).</source>
        <translation>执行相同工作的卡之间，%1 相差其均值的 %2 %：卡 %3 为 %4 ms，卡 %5 为 %6 ms（卡 %8 的均值 %7 ms）。</translation>
    </message>
    <message>
        <source>(max − min) ÷ mean of the pipeline stages&apos; mean Computing &gt; %1</source>
        <translation>各流水线阶段平均计算时间（Computing）的 (最大 − 最小) ÷ 均值 &gt; %1</translation>
    </message>
    <message>
        <source>Pipeline stage %1 computes %2 ms per step, stage %3 %4 ms (%5 stages, %6); ranks of the same stage and TP position differ by at most %7 %, so the stages, not single ranks, are unequal.</source>
        <translation>流水线阶段 %1 每迭代计算 %2 ms，阶段 %3 为 %4 ms（共 %5 个阶段，%6）；同一阶段同一 TP 位置的卡之间最多相差 %7 %，因此不均衡的是各阶段，而非个别卡。</translation>
    </message>
    <message>
        <source>Rebalance the layers over the pipeline stages (e.g. Megatron --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers, or fewer layers on the stage holding the embedding or the loss); the other stages wait for the slowest one in every micro-batch.</source>
        <translation>重新在流水线阶段间分配层数（如 Megatron 的 --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers，或减少包含 embedding 或 loss 的阶段的层数）；每个 micro-batch 中其他阶段都要等待最慢的阶段。</translation>
    </message>
    <message>
        <source>peak reserved ÷ device memory &gt; %1</source>
        <translation>峰值预留内存 ÷ 设备内存 &gt; %1</translation>
    </message>
    <message>
        <source>Rank %1 reserves up to %2 MB of %3 MB (%4 %, %5); ranks above %6 %: %7.</source>
        <translation>卡 %1 最多预留 %2 MB / %3 MB（%4 %，%5）；高于 %6 % 的卡：%7 张。</translation>
    </message>
    <message>
        <source>Close to out-of-memory, and fragmentation grows: recompute activations, shard optimizer states (ZeRO / distributed optimizer), lower the micro-batch size, or set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.</source>
        <translation>接近内存耗尽，且碎片增多：使用激活重计算、切分优化器状态（ZeRO / 分布式优化器）、减小 micro-batch size，或设置 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True。</translation>
    </message>
    <message>
        <source>a rank&apos;s FLOP/s ÷ the median of its comparable ranks &lt; %1</source>
        <translation>单卡 FLOP/s ÷ 其同类卡的中位数 &lt; %1</translation>
    </message>
    <message>
        <source>Rank %1 does %2 TFLOP/s against a median of %3 TFLOP/s over comparable ranks %4 (%5 %).</source>
        <translation>卡 %1 的算力为 %2 TFLOP/s，同类卡 %4 的中位数为 %3 TFLOP/s（%5 %）。</translation>
    </message>
    <message>
        <source>The rank does less floating-point work in its kernel time: compare its operators with a peer (Operators view, compare ranks): other shapes, a different data type, or slower kernels.</source>
        <translation>该卡在核函数时间内完成的浮点运算更少：与同类卡对比算子（算子视图，对比卡）：shape 不同、数据类型不同或核函数更慢。</translation>
    </message>
    <message>
        <source>model FLOPs utilisation needs the chip&apos;s peak (--peak-tflops); the chip is unknown</source>
        <translation>计算模型算力利用率（MFU）需要芯片峰值（--peak-tflops）；芯片型号未知</translation>
    </message>
    <message>
        <source>Achieved %1 TFLOP/s per rank (median over %2 ranks, FLOPs ÷ step wall time; the lowest %3 on rank %4). The profiles do not name the chip: give its peak to get the utilisation.</source>
        <translation>每卡实际算力 %1 TFLOP/s（%2 张卡的中位数，FLOPs ÷ 迭代时间；最低为卡 %4 的 %3）。性能数据中没有芯片型号：请提供其峰值以计算利用率。</translation>
    </message>
    <message>
        <source>Run `npuscope-cli advise --peak-tflops P` with the chip&apos;s dense peak for the data type trained (its data sheet).</source>
        <translation>运行 `npuscope-cli advise --peak-tflops P`，P 为芯片在训练所用数据类型下的稠密算力峰值（见其规格书）。</translation>
    </message>
    <message>
        <source>FLOPs ÷ step wall time ÷ peak (%1 TFLOP/s) &lt; %2</source>
        <translation>FLOPs ÷ 迭代时间 ÷ 峰值（%1 TFLOP/s）&lt; %2</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation %1 % (median over %2 ranks: %3 TFLOP/s of %4); the lowest %5 % on rank %6.</source>
        <translation>模型算力利用率（MFU）%1 %（%2 张卡的中位数：%3 TFLOP/s / %4）；最低为卡 %6 的 %5 %。</translation>
    </message>
    <message>
        <source>Low utilisation: the step spends its time outside large matrix kernels (communication, idle gaps, small or vector operators); follow the other findings, raise the micro-batch size or fuse operators.</source>
        <translation>利用率低：迭代时间大多花在大矩阵核函数之外（通信、空闲间隙、小算子或向量算子）；请参考其他结论，增大 micro-batch size 或进行算子融合。</translation>
    </message>
    <message>
        <source>an AI CPU kernel longer than %1 µs</source>
        <translation>AI CPU 核函数长于 %1 µs</translation>
    </message>
    <message>
        <source>%1 AI CPU operators have kernels longer than %2 µs (the longest %3 µs; %4 ms in total over every rank): %5%6.</source>
        <translation>%1 个 AI CPU 算子的核函数长于 %2 µs（最长 %3 µs；所有卡合计 %4 ms）：%5%6。</translation>
    </message>
    <message>
        <source>AI CPU operators run on the device&apos;s CPU and stall the stream: replace them (other data types, an AI Core implementation, move the computation out of the step).</source>
        <translation>AI CPU 算子在设备的 CPU 上运行，会阻塞流：请替换它们（换用其他数据类型、AI Core 实现，或把计算移出迭代）。</translation>
    </message>
    <message>
        <source>bandwidth &lt; %1 × the %2 median (%3 GB/s) or a robust z-score &lt; −%4 among links of the same op type, transport and size class; links under %5 MB ignored; and below the %6 peak</source>
        <translation>带宽 &lt; %1 × %2 中位数（%3 GB/s），或在同算子类型、同传输类型、同大小档的链路中稳健 z 分数 &lt; −%4；忽略小于 %5 MB 的链路；且低于 %6 峰值</translation>
    </message>
    <message>
        <source>Link %1 → %2 (%3, %4) moves %5 MB at %6 GB/s: %7 % of the %8 median %9 GB/s over %10 links%11.</source>
        <translation>链路 %1 → %2（%3，%4）以 %6 GB/s 传输 %5 MB：为 %10 条链路的 %8 中位数 %9 GB/s 的 %7 %%11。</translation>
    </message>
    <message>
        <source>; median of its like links %1 GB/s</source>
        <translation>；同类链路中位数 %1 GB/s</translation>
    </message>
    <message>
        <source>Check the NICs, optics and switch ports of the two hosts (hccn_tool link status, error counters, retransmissions) and the network topology / ECMP hashing.</source>
        <translation>检查两台主机的网卡、光模块和交换机端口（hccn_tool 链路状态、错误计数、重传）以及网络拓扑 / ECMP 哈希。</translation>
    </message>
    <message>
        <source>Check the intra-node link between the two devices (HCCS / PCIe link status, npu-smi health); a degraded link slows every collective that crosses it.</source>
        <translation>检查两张卡之间的节点内链路（HCCS / PCIe 链路状态、npu-smi 健康状态）；性能下降的链路会拖慢经过它的每个集合通信。</translation>
    </message>
    <message>
        <source>the delay a rank causes (Σ over the collectives it arrives last in of the next-least wait − its wait) is an outlier among %1 comparable ranks (%2) and exceeds their median by %3 % of its step time</source>
        <translation>某卡造成的延迟（在其最后到达的集合通信上 Σ(次小等待 − 其等待)）在 %1 张同类卡中为离群值（%2），且超出其中位数达其迭代时间的 %3 %</translation>
    </message>
    <message>
        <source>Dixon&apos;s Q, 95 %</source>
        <translation>Dixon Q 检验，95 %</translation>
    </message>
    <message>
        <source>robust z-score &gt; 3.5</source>
        <translation>稳健 z 分数 &gt; 3.5</translation>
    </message>
    <message>
        <source>Rank %1 arrives last in %2 of the %3 collectives it takes part in and holds the others back by %4 ms in total (median of comparable ranks %5: %6 ms).</source>
        <translation>卡 %1 在其参与的 %3 次集合通信中有 %2 次最后到达，共拖慢其他卡 %4 ms（同类卡 %5 的中位数：%6 ms）。</translation>
    </message>
    <message>
        <source>Its Computing is %1 ms per step against a median of %2 ms.</source>
        <translation>其每迭代计算时间（Computing）为 %1 ms，中位数为 %2 ms。</translation>
    </message>
    <message>
        <source>The most waiting peer, rank %1 (wait ratio %2), has a synchronisation ratio of %3: %4.</source>
        <translation>等待最多的对端卡 %1（等待比 %2）的同步比为 %3：%4。</translation>
    </message>
    <message>
        <source>above 0.2, the wait is for a slow rank</source>
        <translation>高于 0.2，等待的是慢卡</translation>
    </message>
    <message>
        <source>not above 0.2, so check the links too (slow_link)</source>
        <translation>不高于 0.2，请同时检查链路（slow_link）</translation>
    </message>
    <message>
        <source>Look at what the rank does before the collectives it arrives last in (Time overview, then its timeline): longer computing (a different data shard, a degraded card), host delays, or extra work only that rank does.</source>
        <translation>查看该卡在其最后到达的集合通信之前做了什么（先看时间概览，再看其时间线）：计算更久（数据分片不同、卡性能下降）、Host 侧延迟，或只有该卡执行的额外工作。</translation>
    </message>
    <message>
        <source>Preparing ÷ step time &gt; %1</source>
        <translation>准备时间（Preparing）÷ 迭代时间 &gt; %1</translation>
    </message>
    <message>
        <source>Preparing (from the step start to the first device task: data loading) is %1 % of the step on rank %2; ranks above %3 %: %4.</source>
        <translation>卡 %2 上准备时间（Preparing，从迭代开始到第一个设备任务：数据加载）占迭代的 %1 %；高于 %3 % 的卡：%4 张。</translation>
    </message>
    <message>
        <source>The input pipeline is too slow: more DataLoader workers, pin_memory, prefetching, or preprocessed / cached data; check the host CPU binding.</source>
        <translation>输入流水线太慢：增加 DataLoader worker、使用 pin_memory、预取，或使用预处理 / 缓存的数据；检查 Host CPU 绑核。</translation>
    </message>
    <message>
        <source>(max − min) ÷ mean of a rank&apos;s step time over its steps &gt; %1</source>
        <translation>单卡各迭代时间的 (最大 − 最小) ÷ 均值 &gt; %1</translation>
    </message>
    <message>
        <source>Step time varies by %1 % of its mean on rank %2 (slowest step %3, fastest %4); ranks varying more than %5 %: %6.</source>
        <translation>卡 %2 的迭代时间波动达其均值的 %1 %（最慢迭代 %3，最快 %4）；波动超过 %5 % 的卡：%6 张。</translation>
    </message>
    <message>
        <source>Compare the slowest and the fastest step of the rank: dynamic shapes (recompilation), garbage collection, checkpointing or evaluation inside the profiled steps, or host jitter.</source>
        <translation>对比该卡最慢与最快的迭代：动态 shape（重新编译）、垃圾回收、采集迭代内的保存检查点或评估，或 Host 抖动。</translation>
    </message>
    <message>
        <source>Σ Bubble ÷ Σ step time over a stage&apos;s ranks &gt; %1</source>
        <translation>一个流水线阶段各卡的 Σ 空泡（Bubble）÷ Σ 迭代时间 &gt; %1</translation>
    </message>
    <message>
        <source>Pipeline stage %1 spends %2 % of its step in the pipeline bubble (mean %3 ms of %4 ms over %5 ranks).</source>
        <translation>流水线阶段 %1 有 %2 % 的迭代时间处于流水线气泡中（%5 张卡平均 %3 ms / %4 ms）。</translation>
    </message>
    <message>
        <source>Raise the number of micro-batches per step (gradient accumulation), use an interleaved (virtual pipeline) schedule, or balance the stages (see stage_imbalance).</source>
        <translation>增加每迭代的 micro-batch 数（梯度累积），使用交错（虚拟流水线）调度，或均衡各阶段（见 stage_imbalance）。</translation>
    </message>
    <message>
        <source>Ranks examined (timeline loaded): %1.</source>
        <translation>已检查的卡（已加载时间线）：%1。</translation>
    </message>
    <message>
        <source>host launched late</source>
        <translation>Host 下发过晚</translation>
    </message>
    <message>
        <source>long gap on the host side</source>
        <translation>Host 侧长时间空闲</translation>
    </message>
    <message>
        <source>device work that is neither compute nor communication</source>
        <translation>既非计算也非通信的设备任务</translation>
    </message>
    <message>
        <source>%1 ms of other device tasks</source>
        <translation>其他设备任务 %1 ms</translation>
    </message>
    <message>
        <source>unknown (no device task starts at its end)</source>
        <translation>未知（间隙结束时没有设备任务开始）</translation>
    </message>
    <message>
        <source>unknown (no launch flow into %1)</source>
        <translation>未知（没有指向 %1 的下发连线）</translation>
    </message>
    <message>
        <source>device waited with the launch done (a dependency or synchronisation)</source>
        <translation>下发已完成但设备仍在等待（依赖或同步）</translation>
    </message>
    <message>
        <source>%1 ended %2 ms before the gap&apos;s end</source>
        <translation>%1 在间隙结束前 %2 ms 结束</translation>
    </message>
    <message>
        <source>the launching host thread ran nothing for %1 ms before %2</source>
        <translation>下发线程在 %2 之前 %1 ms 内未执行任何任务</translation>
    </message>
    <message>
        <source>%1 ended %2 ms into the gap, %3 ms before %4 started</source>
        <translation>%1 在间隙开始后 %2 ms 结束，比 %4 开始早 %3 ms</translation>
    </message>
    <message>
        <source>%1 ended %2 ms into the gap, %3 ms after %4 started</source>
        <translation>%1 在间隙开始后 %2 ms 结束，比 %4 开始晚 %3 ms</translation>
    </message>
    <message>
        <source>%1 ms at %2 ms before %3: %4</source>
        <translation>在 %2 ms 处（%3 之前）空闲 %1 ms：%4</translation>
    </message>
    <message>
        <source>%1 ms at %2 ms before %3: %4 — %5</source>
        <translation>在 %2 ms 处（%3 之前）空闲 %1 ms：%4 — %5</translation>
    </message>
    <message>
        <source>device idle (neither compute nor communication) longer than %1 ms</source>
        <translation>设备空闲（既无计算也无通信）长于 %1 ms</translation>
    </message>
    <message>
        <source>Rank %1&apos;s device idles in %2 gaps of at least %3 ms; the longest %4 (%5 % of its device span; times from the timeline&apos;s start): %6. The longest: %7.</source>
        <translation>卡 %1 的设备有 %2 段不短于 %3 ms 的空闲间隙；最长的 %4 段（占设备时间跨度的 %5 %；时间从时间线起点算起）：%6。最长一段：%7。</translation>
    </message>
    <message>
        <source>The host could not keep the device fed: look at the Python and CANN work before the launch (slow operators on the host, small kernels, synchronising calls such as .item()); fuse operators, enable task queue / graph mode, or move host work off the critical path.</source>
        <translation>Host 下发跟不上设备：查看下发前的 Python 和 CANN 工作（Host 侧慢算子、小核函数、.item() 等同步调用）；进行算子融合、开启 task queue / 图模式，或把 Host 工作移出关键路径。</translation>
    </message>
    <message>
        <source>The host thread did nothing before the launch: it waited (data loading, a synchronisation, a lock, garbage collection); look at the host thread in the Timeline at that time.</source>
        <translation>Host 线程在下发前没有执行任何任务，而是在等待（数据加载、同步、锁、垃圾回收）；请在时间线中查看该时刻的 Host 线程。</translation>
    </message>
    <message>
        <source>Look at the device tasks around the gap in the Timeline: memory copies, events and other non-compute tasks, or a dependency that kept the stream waiting.</source>
        <translation>在时间线中查看间隙前后的设备任务：内存拷贝、事件等非计算任务，或使流等待的依赖。</translation>
    </message>
    <message>
        <source>one of the %1 collectives whose start spread over the ranks is the largest, from %2 ms</source>
        <translation>各卡开始时间差最大的 %1 个集合通信之一，从 %2 ms 起</translation>
    </message>
    <message>
        <source>%1 starts %2 ms later on rank %3 than on rank %4</source>
        <translation>%1 在卡 %3 上比在卡 %4 上晚 %2 ms 开始</translation>
    </message>
    <message>
        <source>%1: host-bound. Since its step&apos;s work began rank %2&apos;s device was idle %3 ms more than rank %4&apos;s (%5 vs %6 ms), the longest %7 ms before %8%9. %10</source>
        <translation>%1：受 Host 限制。自本迭代工作开始，卡 %2 的设备比卡 %4 多空闲 %3 ms（%5 对 %6 ms），最长一段 %7 ms 在 %8 之前%9。%10</translation>
    </message>
    <message>
        <source>, launched by %1</source>
        <translation>，由 %1 下发</translation>
    </message>
    <message>
        <source>The late rank&apos;s host kept its device waiting: look at its host thread before those launches (idle_gap names the gaps).</source>
        <translation>迟到卡的 Host 让其设备空等：查看这些下发之前的 Host 线程（idle_gap 列出了这些间隙）。</translation>
    </message>
    <message>
        <source>%1: device-bound (its device was not idle longer). Since the step&apos;s work began rank %2&apos;s device was busy %3 ms and idle %4 ms, rank %5&apos;s busy %6 ms and idle %7 ms; rank %8&apos;s longest task there %9. %10</source>
        <translation>%1：受设备限制（其设备空闲并不更久）。自本迭代工作开始，卡 %2 的设备忙碌 %3 ms、空闲 %4 ms，卡 %5 忙碌 %6 ms、空闲 %7 ms；卡 %8 在此期间最长的任务为 %9。%10</translation>
    </message>
    <message>
        <source>The late rank&apos;s device had more to do: compare its kernels with the early rank&apos;s (Operators, compare ranks) or look for a slow rank.</source>
        <translation>迟到卡的设备任务更多：将其核函数与先到卡对比（算子视图，对比卡），或排查慢卡。</translation>
    </message>
    <message>
        <source>SDMA bandwidth &lt; %1 GB/s while a MatMul runs</source>
        <translation>MatMul 运行期间 SDMA 带宽 &lt; %1 GB/s</translation>
    </message>
    <message>
        <source>On rank %1, %2 of %3 SDMA transfers of at least %4 MB run below %5 GB/s while a MatMul kernel overlaps them (the slowest %6 GB/s, %7). %8</source>
        <translation>卡 %1 上，%3 次不小于 %4 MB 的 SDMA 传输中有 %2 次在与 MatMul 核函数重叠时低于 %5 GB/s（最慢 %6 GB/s，%7）。%8</translation>
    </message>
    <message>
        <source>Communication and MatMul compete for HBM bandwidth: schedule the overlapped collective elsewhere, split it, or accept the overlap if the step still gains.</source>
        <translation>通信与 MatMul 争抢 HBM 带宽：把被掩盖的集合通信调度到别处、将其拆分，或在迭代仍有收益时接受这种重叠。</translation>
    </message>
    <message>
        <source>%1: %2 µs over %3</source>
        <translation>%1：%2 µs（%3 个）</translation>
    </message>
    <message>
        <source>statistics, no threshold</source>
        <translation>统计信息，无阈值</translation>
    </message>
    <message>
        <source>no CANN API bound to a HostToDevice flow</source>
        <translation>没有 CANN API 绑定到 HostToDevice 连线</translation>
    </message>
    <message>
        <source>aten op start → CANN API start median %1 µs over %2</source>
        <translation>aten 算子开始 → CANN API 开始的中位数 %1 µs（%2 个）</translation>
    </message>
    <message>
        <source>Dispatch chain of %1 device tasks with an aten op → device flow: aten op start → device task start median %2 µs (p90 %3); %4; launch end → device start median %5 µs (p90 %6). Per rank (median, tasks): %7. %8</source>
        <translation>%1 个带有 aten 算子 → 设备连线的设备任务的下发链：aten 算子开始 → 设备任务开始的中位数 %2 µs（p90 %3）；%4；下发结束 → 设备开始的中位数 %5 µs（p90 %6）。各卡（中位数，任务数）：%7。%8</translation>
    </message>
    <message>
        <source>A launch → device time near zero means the device waits for the host (host-bound); a large one that the host runs ahead, as it should.</source>
        <translation>下发 → 设备时间接近零说明设备在等待 Host（受 Host 限制）；该时间较大说明 Host 跑在设备前面，这是正常的。</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>per step, the time the loaded members of a group whose rank list names ranks that were not loaded spend in its ops neither transferring nor waiting for each other (the least over them per op) &gt; %1 % of the step</source>
        <translation>每迭代中，成员列表含有未加载卡的通信域，其已加载成员在该域算子内既未传输、也不是互相等待的时间（每个算子取各成员的最小值）&gt; 迭代的 %1 %</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>The wait is on ranks %1 of communication group %2, which were not loaded (not collected, or not opened): the loaded members %3 spend %4 ms per step (%5 % of the step) in the group&apos;s %6 op instances neither transferring nor waiting for each other (the least over the loaded members in each). The group has %7 ranks (membership: %8).</source>
        <translation>等待的是通信域 %2 中的卡 %1，这些卡未加载（未采集或未打开）：已加载的成员 %3 每迭代在该域的 %6 个算子实例中有 %4 ms（迭代的 %5 %）既未传输、也不是互相等待（每个实例取已加载成员的最小值）。该通信域共 %7 张卡（成员来源：%8）。</translation>
    </message>
    <message>
        <source>Open the missing ranks&apos; profiles with these (or collect them: profile every rank of the group, at least one per node) to see which of them arrives late; from the loaded ranks alone the wait cannot be attributed to a rank.</source>
        <translation>将缺失卡的性能数据与这些一起打开（若未采集：采集该通信域的每张卡，至少每个节点一张），以查看其中哪张卡迟到；仅凭已加载的卡无法把等待归因到某张卡。</translation>
    </message>
    <message>
        <source>No operator&apos;s queues single out a bottleneck.</source>
        <translation>各算子的队列未能指出瓶颈算子。</translation>
    </message>
    <message>
        <source>its output queue is emptier than its input queue</source>
        <translation>其输出队列比输入队列更空</translation>
    </message>
    <message>
        <source>a source whose output queue is almost empty</source>
        <translation>源算子的输出队列几乎为空</translation>
    </message>
    <message>
        <source>every queue before it is almost full</source>
        <translation>其之前的各队列几乎全满</translation>
    </message>
    <message>
        <source>Bottleneck operator: %1 (op %2, rule %3: %4; its queue %5 % used).</source>
        <translation>瓶颈算子：%1（算子 %2，规则 %3：%4；其队列使用率 %5 %）。</translation>
    </message>
    <message>
        <source>device queue empty in &gt; %1 of its samples</source>
        <translation>设备队列为空的采样占比 &gt; %1</translation>
    </message>
    <message>
        <source>The queue feeding the device was empty in %1 of %2 samples (%3 %) on rank %4: the data pipeline is slower than the device.</source>
        <translation>rank %4 上向设备供数的队列在 %2 次采样中有 %1 次为空（%3 %）：数据管道比设备慢。</translation>
    </message>
    <message>
        <source>Preparing ÷ step time &gt; %1 (no device queue file)</source>
        <translation>Preparing ÷ 迭代时间 &gt; %1（无设备队列文件）</translation>
    </message>
    <message>
        <source>Preparing (waiting for data before the first device task) is %1 % of the step on rank %2, which has a data pipeline profile.</source>
        <translation>rank %2（有数据管道采集数据）上 Preparing（第一个设备任务之前等待数据的时间）占迭代的 %1 %。</translation>
    </message>
    <message>
        <source>Preparing is %1 % of its step.</source>
        <translation>Preparing 占其迭代的 %1 %。</translation>
    </message>
    <message>
        <source>Input-bound ranks: %1.</source>
        <translation>受输入限制的 rank：%1。</translation>
    </message>
    <message>
        <source>Speed up the dataset pipeline: more num_workers for the bottleneck operator, lighter map operations, faster storage or a dataset cache, or a deeper prefetch queue; check that the host CPUs are not saturated.</source>
        <translation>加快数据集管道：为瓶颈算子增加 num_workers，减轻 map 操作，使用更快的存储或数据集缓存，或加深预取队列；并检查主机 CPU 是否已饱和。</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::AdviceDock</name>
    <message>
        <source>Advice</source>
        <translation>专家建议</translation>
    </message>
    <message>
        <source>Double-click a finding to show its evidence</source>
        <translation>双击一条结论查看其依据</translation>
    </message>
    <message>
        <source>Show evidence</source>
        <translation>查看依据</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>Run the rules again, e.g. after loading more timelines (the timeline rules examine the ranks whose timeline is loaded)</source>
        <translation>重新运行规则，例如加载更多时间线之后（时间线规则只检查已加载时间线的卡）</translation>
    </message>
    <message>
        <source>No findings: no rule&apos;s threshold was crossed</source>
        <translation>无结论：没有规则超过阈值</translation>
    </message>
    <message>
        <source>1 finding: </source>
        <translation>1 条结论：</translation>
    </message>
    <message>
        <source>%1 findings: </source>
        <translation>%1 条结论：</translation>
    </message>
    <message>
        <source> · device memory %1 GB (Memory heatmap setting) · double-click a finding to show its evidence</source>
        <translation> · 设备内存 %1 GB（内存热力图设置）· 双击某条发现以查看其依据</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>测量值</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>Suggestion:</source>
        <translation>建议：</translation>
    </message>
    <message>
        <source>Cluster steps</source>
        <translation>集群迭代</translation>
    </message>
    <message>
        <source>Time overview</source>
        <translation>时间概览</translation>
    </message>
    <message>
        <source>Communication duration</source>
        <translation>通信耗时</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Memory heatmap</source>
        <translation>内存热力图</translation>
    </message>
    <message>
        <source>FLOPs heatmap</source>
        <translation>FLOPs 热力图</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Parallel strategy</source>
        <translation>并行策略</translation>
    </message>
    <message>
        <source>critical %1 · warning %2 · info %3</source>
        <translation>严重 %1 · 警告 %2 · 提示 %3</translation>
    </message>
    <message>
        <source>%1, … (most affected first); all %2: %3</source>
        <translation>%1、…（影响最大的在前）；全部 %2 张卡：%3</translation>
    </message>
    <message>
        <source> · first: %1, %2</source>
        <translation> · 首要：%1，%2</translation>
    </message>
    <message>
        <source>Impact</source>
        <translation>影响</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::AdviceTableModel</name>
    <message>
        <source>ranks </source>
        <translation>卡 </translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>The rule id (npuscope.advice/1 “id”)</source>
        <translation>规则 ID（npuscope.advice/1 的 “id”）</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>delimitation, slow_rank, communication, computation, scheduling or memory</source>
        <translation>delimitation（定界）、slow_rank（慢卡）、communication（通信）、computation（计算）、scheduling（调度）或 memory（内存）</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>The measured figure, in the unit shown</source>
        <translation>测量值，单位如所示</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>The figure the value was compared with</source>
        <translation>与该值比较的阈值</translation>
    </message>
    <message>
        <source>Ranks / links</source>
        <translation>卡 / 链路</translation>
    </message>
    <message>
        <source>The ranks concerned (the most affected first), else the links</source>
        <translation>相关的卡（受影响最大的在前），否则为链路</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>What was measured</source>
        <translation>测量内容</translation>
    </message>
    <message>
        <source>critical, warning or info (docs/metrics.md, “Advice rules”)</source>
        <translation>critical（严重）、warning（警告）或 info（提示）（见 docs/metrics.md“Advice rules”）</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>delimitation</source>
        <translation>定界</translation>
    </message>
    <message>
        <source>slow rank</source>
        <translation>慢卡</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>computation</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>scheduling</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>, </source>
        <comment>the separator of the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 ms (%2 %)</source>
        <translation>%1 ms（%2 %）</translation>
    </message>
    <message>
        <source>the rule does not estimate the step time it explains (docs/metrics.md, “Impact”)</source>
        <translation>该规则不估算其解释的迭代时间（docs/metrics.md，“Impact”）</translation>
    </message>
    <message>
        <source>explains %1 ms (no step time loaded)</source>
        <translation>解释 %1 ms（未加载迭代时间）</translation>
    </message>
    <message>
        <source>explains %1 ms (%2 % of the step)</source>
        <translation>解释 %1 ms（占迭代的 %2 %）</translation>
    </message>
    <message>
        <source>Impact</source>
        <translation>影响</translation>
    </message>
    <message>
        <source>The step time the finding explains, in ms of the mean step (or of the step concerned) and as a share of that step (docs/metrics.md, “Impact”); — when the rule cannot estimate it. Sorted as the advice ranks: severity, then impact</source>
        <translation>该发现所解释的迭代时间：平均迭代（或相关迭代）中的 ms 数及其占该迭代的比例（docs/metrics.md，“Impact”）；规则无法估算时为 —。排序与建议一致：先按严重程度，再按影响</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ApiStatisticTableModel</name>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>api_statistic.csv: Level (acl, runtime, hccl, node, communication)</source>
        <translation>api_statistic.csv：Level（acl、runtime、hccl、node、communication）</translation>
    </message>
    <message>
        <source>API Name</source>
        <translation>API 名称</translation>
    </message>
    <message>
        <source>api_statistic.csv: API Name</source>
        <translation>api_statistic.csv：API Name</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>Ranks shown whose api_statistic.csv lists the API</source>
        <translation>所示 rank 中 api_statistic.csv 列出该 API 的个数</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Count, summed over the ranks shown</source>
        <translation>Count，所示 rank 之和</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Time, summed over the ranks shown</source>
        <translation>Time，所示 rank 之和</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Total ÷ Count over the ranks shown (the file&apos;s Avg on one rank)</source>
        <translation>所示 rank 的总时间 ÷ 次数（单个 rank 时即文件的 Avg）</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Min: the least over the ranks shown</source>
        <translation>Min：所示 rank 中的最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Max: the largest over the ranks shown</source>
        <translation>Max：所示 rank 中的最大值</translation>
    </message>
    <message>
        <source>Share [%]</source>
        <translation>占比 [%]</translation>
    </message>
    <message>
        <source>The API&apos;s time over the time of every API of its level, on the ranks shown</source>
        <translation>该 API 的时间占所示 rank 上同级别全部 API 时间的比例</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::AreaStatsModel</name>
    <message>
        <source>, over the slices of this name in the selected time range and rows</source>
        <translation>，统计所选时间范围和行中该名称的切片</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Slice name</source>
        <translation>切片名称</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Number of slices</source>
        <translation>切片数量</translation>
    </message>
    <message>
        <source>Total wall</source>
        <translation>总耗时</translation>
    </message>
    <message>
        <source>Σ duration (wall time)</source>
        <translation>Σ 时长（墙钟时间）</translation>
    </message>
    <message>
        <source>Total self</source>
        <translation>总自身耗时</translation>
    </message>
    <message>
        <source>Σ self time (duration minus the time of nested slices)</source>
        <translation>Σ 自身时间（时长减去嵌套切片的时间）</translation>
    </message>
    <message>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Total wall / Count</source>
        <translation>总耗时 / 次数</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Shortest duration</source>
        <translation>最短时长</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Longest duration</source>
        <translation>最长时长</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::BaselineLoader</name>
    <message numerus="yes">
        <source>%n rank</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ranks</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BlameCause</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机侧</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::BlameDock</name>
    <message>
        <source>Blame</source>
        <translation>归因分析</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>No delayed communication</source>
        <translation>无延迟的通信</translation>
    </message>
    <message>
        <source>&lt;p&gt;No rank or link stands out in this step.&lt;/p&gt;</source>
        <translation>&lt;p&gt;该迭代中没有明显异常的卡或链路。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>rank %1 arrived late in %2 (%3, last arriver %4)</source>
        <translation>卡 %1 在 %2 中迟到（%3，最后到达：卡 %4）</translation>
    </message>
    <message>
        <source>rank %1 waited in %2 (%3, last arriver %4)</source>
        <translation>卡 %1 在 %2 中等待（%3，最后到达：卡 %4）</translation>
    </message>
    <message>
        <source>%1 ms of waiting, summed over the ranks of %2 delayed ops, all of it the normal spread between ranks: no rank or link explains %3 % of it or more</source>
        <translation>%2 个延迟算子中各卡等待时间合计 %1 ms，全部属于卡间正常波动：没有任何卡或链路能解释其中 %3 % 或更多</translation>
    </message>
    <message>
        <source>%1 ms of waiting, summed over the ranks of %2 delayed ops: %3 ms traced to %4 roots; %5 ms not explained by any rank or link (the normal spread between ranks)</source>
        <translation>%2 个延迟算子中各卡等待时间合计 %1 ms：其中 %3 ms 追溯到 %4 个根因；%5 ms 无法归因于任何卡或链路（卡间正常波动）</translation>
    </message>
    <message>
        <source>No root: every delay of this step is within the normal spread between ranks</source>
        <translation>无根因：该迭代的所有延迟都在卡间正常波动范围内</translation>
    </message>
    <message>
        <source>%1 ms of waiting, summed over the ranks of %2 delayed ops: %3 ms traced to %4 root; %5 ms not explained by any rank or link (the normal spread between ranks)</source>
        <translation>%2 个延迟算子中各卡等待时间合计 %1 ms：其中 %3 ms 追溯到 %4 个根因；%5 ms 无法归因于任何卡或链路（卡间正常波动）</translation>
    </message>
    <message>
        <source>on the critical path</source>
        <translation>在关键路径上</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::BlameTableModel</name>
    <message>
        <source>transit %1 ms where the same size takes %2 ms</source>
        <translation>传输 %1 ms，而相同大小通常只需 %2 ms</translation>
    </message>
    <message>
        <source>%1 ms more work than its peers before an op</source>
        <translation>在算子之前比同组卡多做 %1 ms 的工作</translation>
    </message>
    <message>
        <source>; computing %1 ms (peers %2)</source>
        <translation>；计算 %1 ms（同组 %2）</translation>
    </message>
    <message>
        <source>; free %1 ms (peers %2)</source>
        <translation>；空闲 %1 ms（同组 %2）</translation>
    </message>
    <message>
        <source>Root</source>
        <translation>根因</translation>
    </message>
    <message>
        <source>The rank, or the link, the waiting started from</source>
        <translation>等待起源的卡或链路</translation>
    </message>
    <message>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Induced wait (ms)</source>
        <translation>引发的等待 (ms)</translation>
    </message>
    <message>
        <source>The wait of other ranks traced back to this root in the step</source>
        <translation>该迭代中追溯到此根因的其他卡的等待时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Of the step&apos;s induced wait (its roots&apos; sum)</source>
        <translation>占该迭代诱发等待（其所有根因之和）的比例</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例数</translation>
    </message>
    <message>
        <source>Delayed instances this root is the largest cause of</source>
        <translation>以此根因为最大原因的延迟实例数</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>What makes this root the cause; the chain is in the tooltip</source>
        <translation>此根因成为原因的依据；完整链路见提示</translation>
    </message>
    <message>
        <source>chain of %1 hops from its costliest instance</source>
        <translation>从代价最大的实例起共 %1 跳的链路</translation>
    </message>
    <message>
        <source>compute, host (device idle: dispatch-bound), link or unknown (docs/metrics.md, “Blame”)</source>
        <translation>compute（计算）、host（设备空闲：下发瓶颈）、link（链路）或 unknown（未知）（见 docs/metrics.md“Blame”）</translation>
    </message>
    <message>
        <source>link %1-%2</source>
        <translation>链路 %1-%2</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ChartWidget</name>
    <message>
        <source>Save image…</source>
        <translation>保存图片…</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ClusterStepsDock</name>
    <message>
        <source>Cluster steps</source>
        <translation>集群迭代</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Unit:</source>
        <translation>单位：</translation>
    </message>
    <message>
        <source>Pipeline stages (msprof-analyze: each value is the max over the stage&apos;s ranks)</source>
        <translation>流水线阶段（msprof-analyze：每个值为该阶段各卡的最大值）</translation>
    </message>
    <message>
        <source>All steps (mean)</source>
        <translation>所有迭代（均值）</translation>
    </message>
    <message>
        <source>All steps but the first (mean)</source>
        <translation>除首个迭代外的所有迭代（均值）</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 张卡</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <source>%1 of %2 ranks have step times</source>
        <translation>%2 张卡中有 %1 张有迭代时间</translation>
    </message>
    <message>
        <source> · slowest rank %1</source>
        <translation> · 最慢卡 %1</translation>
    </message>
    <message>
        <source>Slowest rank: %1</source>
        <translation>最慢卡：%1</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Costliest collectives of this rank</source>
        <translation>该卡代价最大的集合通信</translation>
    </message>
    <message>
        <source> · slowest rank %1 (step wall time %2)</source>
        <translation> · 最慢卡 %1（迭代墙钟时间 %2）</translation>
    </message>
    <message>
        <source>Step wall time: %1</source>
        <translation>迭代墙钟时间：%1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CollectivesDock</name>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>所有迭代</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有通信域</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <source>%1 of %2 instances, by wait cost · %3 unmatched send / receive · clock offsets up to %4 µs (estimated from collective ends, applied to the spread)</source>
        <translation>%2 个实例中的 %1 个，按等待代价排序 · %3 个未配对的发送 / 接收 · 时钟偏差最多 %4 µs（由集合通信结束时间估计，已用于到达差）</translation>
    </message>
    <message>
        <source>Only the instances these ranks take part in; click to show every instance</source>
        <translation>仅显示这些卡参与的实例；单击以显示全部实例</translation>
    </message>
    <message>
        <source>Align ranks on this collective</source>
        <translation>按此集合通信对齐各卡</translation>
    </message>
    <message>
        <source>Shift each member rank&apos;s timeline so that the selected instance ends at the same time</source>
        <translation>平移各成员卡的时间线，使所选实例在同一时刻结束</translation>
    </message>
    <message>
        <source>Reset alignment</source>
        <translation>重置对齐</translation>
    </message>
    <message>
        <source>Put every rank&apos;s timeline offset back to 0</source>
        <translation>将所有卡的时间线偏移恢复为 0</translation>
    </message>
    <message>
        <source>Select an instance to select its member ranks and its step and mark their arrivals in the timeline</source>
        <translation>选择一个实例即选中其成员卡和所在迭代，并在时间线中标出各卡的到达时刻</translation>
    </message>
    <message>
        <source>link %1 ✕</source>
        <translation>链路 %1 ✕</translation>
    </message>
    <message>
        <source>rank %1 ✕</source>
        <translation>卡 %1 ✕</translation>
    </message>
    <message>
        <source>%1 %2 (step %3)</source>
        <translation>%1 %2（迭代 %3）</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Group:</source>
        <translation>通信域：</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>group hash %1</source>
        <translation>通信域哈希 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CollectivesTableModel</name>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>The step the op ran in</source>
        <translation>算子所在的迭代</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>The op key (name@group hash); a send / receive pair: the send&apos;s</source>
        <translation>算子键（名称@通信域哈希）；发送 / 接收对：取发送方的</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>allReduce, send, ...</source>
        <translation>allReduce、send 等</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>collective, or p2p (a send matched with its receive)</source>
        <translation>集合通信（collective），或点对点（p2p：与接收配对的发送）</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>The group&apos;s name when known, else its hash</source>
        <translation>已知时为通信域名称，否则为其哈希</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>The ranks that took part</source>
        <translation>参与的卡</translation>
    </message>
    <message>
        <source>Last arriver</source>
        <translation>最晚到达者</translation>
    </message>
    <message>
        <source>Spread (ms)</source>
        <translation>到达偏差 (ms)</translation>
    </message>
    <message>
        <source>Latest − earliest start, after the per-host clock offsets</source>
        <translation>最晚开始 − 最早开始（已校正各主机的时钟偏差）</translation>
    </message>
    <message>
        <source>Wait cost (ms)</source>
        <translation>等待代价 (ms)</translation>
    </message>
    <message>
        <source>Σ (member wait − the last arriver&apos;s wait)</source>
        <translation>Σ（成员等待 − 最晚到达者的等待）</translation>
    </message>
    <message>
        <source>Delay (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <source>Σ member wait above its role&apos;s least wait: what blame explains</source>
        <translation>Σ 成员等待中高于同角色最小等待的部分：归因分析所解释的部分</translation>
    </message>
    <message>
        <source>Root</source>
        <translation>根因</translation>
    </message>
    <message>
        <source>Where blame traced this instance&apos;s delay to (empty: on time or within the normal spread)</source>
        <translation>归因分析将该实例的延迟追溯到的位置（空：准时或在正常波动内）</translation>
    </message>
    <message>
        <source>The member that waited least (docs/metrics.md, “Collective instances”)</source>
        <translation>等待最少的成员（见 docs/metrics.md“Collective instances”）</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Critical path</source>
        <translation>关键路径</translation>
    </message>
    <message>
        <source>Whether the step&apos;s critical path passes this op (computed by the Critical path view for its step; docs/metrics.md, “Critical path”)</source>
        <translation>该步的关键路径是否经过此算子（由“关键路径”视图按其步计算；docs/metrics.md，“Critical path”）</translation>
    </message>
    <message>
        <source>not computed</source>
        <translation>未计算</translation>
    </message>
    <message>
        <source>on the path</source>
        <translation>在路径上</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommDiffModel</name>
    <message>
        <source>Δ elapse ms</source>
        <translation>Δ 耗时 ms</translation>
    </message>
    <message>
        <source>New − base elapse, ms per rank and step</source>
        <translation>新 − 基线 耗时，每卡每迭代 ms</translation>
    </message>
    <message>
        <source>Δ wait ms</source>
        <translation>Δ 等待 ms</translation>
    </message>
    <message>
        <source>New − base wait, ms per rank and step</source>
        <translation>新 − 基线 等待，每卡每迭代 ms</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Communication op type</source>
        <translation>通信算子类型</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>The &apos;@&apos; group hash (Ascend) or process group name (Kineto)</source>
        <translation>“@”后的通信域哈希（昇腾）或进程组名称（Kineto）</translation>
    </message>
    <message>
        <source>Base count</source>
        <translation>基线次数</translation>
    </message>
    <message>
        <source>Ops per rank and step in the baseline</source>
        <translation>基线中每卡每迭代的算子数</translation>
    </message>
    <message>
        <source>New count</source>
        <translation>新次数</translation>
    </message>
    <message>
        <source>Ops per rank and step in the opened run</source>
        <translation>当前打开的运行中每卡每迭代的算子数</translation>
    </message>
    <message>
        <source>Base elapse ms</source>
        <translation>基线耗时 ms</translation>
    </message>
    <message>
        <source>Elapse per rank and step in the baseline</source>
        <translation>基线中每卡每迭代的耗时</translation>
    </message>
    <message>
        <source>New elapse ms</source>
        <translation>新耗时 ms</translation>
    </message>
    <message>
        <source>Elapse per rank and step in the opened run</source>
        <translation>当前打开的运行中每卡每迭代的耗时</translation>
    </message>
    <message>
        <source>Base GB/s</source>
        <translation>基线 GB/s</translation>
    </message>
    <message>
        <source>Σ transit size ÷ Σ transit time of the bandwidth rows (10^3-based)</source>
        <translation>带宽行的 Σ 传输大小 ÷ Σ 传输时间（按 10^3 进制）</translation>
    </message>
    <message>
        <source>New GB/s</source>
        <translation>新 GB/s</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommDurationDock</name>
    <message>
        <source>Communication duration</source>
        <translation>通信耗时</translation>
    </message>
    <message>
        <source>Packet sizes per transport (packet count per size range)</source>
        <translation>各传输类型的数据包大小（各大小区间的包数）</translation>
    </message>
    <message>
        <source>Ops over the step per rank (click: timeline)</source>
        <translation>各卡迭代内的通信算子（单击：时间线）</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <source>No communication ops in this selection</source>
        <translation>当前选择中无通信算子</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommDurationModel</name>
    <message>
        <source>%1 MB in %2 ms</source>
        <translation>%2 ms 内 %1 MB</translation>
    </message>
    <message>
        <source>, summed over the rank&apos;s selected ops (ms)</source>
        <translation>，对该卡所选算子求和 (ms)</translation>
    </message>
    <message>
        <source>Σ Transit Size (MB) / Σ Transit Time (ms) of the %1 rows of the rank&apos;s selected ops (GB/s)</source>
        <translation>该卡所选算子 %1 行的 Σ 传输大小 (MB) / Σ 传输时间 (ms) (GB/s)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Global rank</source>
        <translation>全局卡号</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Number of the rank&apos;s communication ops in the selection</source>
        <translation>所选范围内该卡的通信算子数</translation>
    </message>
    <message>
        <source>Elapsed (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <source>Elapse Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <source>Transit Time</source>
        <translation>传输时间</translation>
    </message>
    <message>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>Wait Time</source>
        <translation>等待时间</translation>
    </message>
    <message>
        <source>Sync (ms)</source>
        <translation>同步 (ms)</translation>
    </message>
    <message>
        <source>Synchronization Time</source>
        <translation>同步时间</translation>
    </message>
    <message>
        <source>Idle (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>Idle Time</source>
        <translation>空闲时间</translation>
    </message>
    <message>
        <source>Wait Ratio</source>
        <translation>等待比例</translation>
    </message>
    <message>
        <source>Wait / (Wait + Transit)
Wait Ratio = ΣWait / (ΣWait + ΣTransit) over the rank&apos;s selected ops</source>
        <translation>等待 / (等待 + 传输)
等待比 = Σ等待 / (Σ等待 + Σ传输)，对该卡所选算子计算</translation>
    </message>
    <message>
        <source>Sync Ratio</source>
        <translation>同步比例</translation>
    </message>
    <message>
        <source>Synchronization / (Synchronization + Transit)
Sync Ratio = ΣSync / (ΣSync + ΣTransit) over the rank&apos;s selected ops</source>
        <translation>同步 / (同步 + 传输)
同步比 = Σ同步 / (Σ同步 + Σ传输)，对该卡所选算子计算</translation>
    </message>
    <message>
        <source>SDMA (GB/s)</source>
        <translation>SDMA (GB/s)</translation>
    </message>
    <message>
        <source>RDMA (GB/s)</source>
        <translation>RDMA (GB/s)</translation>
    </message>
    <message>
        <source>Not in these files: this generation (e.g. MindSpore hccl_raw) records communication and wait cost only</source>
        <translation>这些文件中没有：该代格式（如 MindSpore hccl_raw）只记录通信代价和等待代价</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommMatrixDock</name>
    <message>
        <source>Communication matrix</source>
        <translation>通信矩阵</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Transit size (MB)</source>
        <translation>传输大小 (MB)</translation>
    </message>
    <message>
        <source>Transit time (ms)</source>
        <translation>传输时间 (ms)</translation>
    </message>
    <message>
        <source>Transport type</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>排序：</translation>
    </message>
    <message>
        <source>Group blocks (auto)</source>
        <translation>按通信域分块（自动）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>%1 blocks</source>
        <translation>%1 块</translation>
    </message>
    <message>
        <source>Total (all op types)</source>
        <translation>总计（所有算子类型）</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>(links without a group)</source>
        <translation>（无通信域的链路）</translation>
    </message>
    <message>
        <source> (+%1 diagonal/LOCAL, hidden)</source>
        <translation>（另有 %1 条对角线/LOCAL，已隐藏）</translation>
    </message>
    <message>
        <source> + %1 diagonal/LOCAL</source>
        <translation> + %1 条对角线/LOCAL</translation>
    </message>
    <message>
        <source> · slowest link %1 → %2: %3 GB/s (%4)</source>
        <translation> · 最慢链路 %1 → %2：%3 GB/s（%4）</translation>
    </message>
    <message>
        <source> · %1 ranks wrote links (rows of the others are empty)</source>
        <translation> · %1 张卡写出了链路（其余卡的行为空）</translation>
    </message>
    <message>
        <source> · from the file&apos;s “Total Op Info” rows (no per-type totals)</source>
        <translation> · 来自文件的“Total Op Info”行（无按类型的汇总）</translation>
    </message>
    <message>
        <source>&lt;b&gt;group-local ranks&lt;/b&gt;: global ranks unknown for group %1</source>
        <translation>&lt;b&gt;通信域内卡号&lt;/b&gt;：通信域 %1 的全局卡号未知</translation>
    </message>
    <message>
        <source>not shown: links of %1 (global ranks unknown; select the group to see them in its group-local ranks)</source>
        <translation>未显示：%1 的链路（全局卡号未知；选择该通信域可按通信域内卡号查看）</translation>
    </message>
    <message>
        <source>With “All ops”: the total over every op type, or one op type&apos;s slot</source>
        <translation>选“所有算子”时：所有算子类型的总计，或某一算子类型的数据</translation>
    </message>
    <message>
        <source>%1 ranks · %2 src→dst links</source>
        <translation>%1 张卡 · %2 条 源→目的 链路</translation>
    </message>
    <message>
        <source> · wheel or drag a rectangle: zoom, Shift+drag: pan, double-click: fit</source>
        <translation> · 滚轮或拖出矩形：缩放，Shift+拖动：平移，双击：适应窗口</translation>
    </message>
    <message>
        <source>Hide LOCAL</source>
        <translation>隐藏 LOCAL</translation>
    </message>
    <message>
        <source>Hide the diagonal: the LOCAL links of a rank to itself (copies within the device)</source>
        <translation>隐藏对角线：卡到自身的 LOCAL 链路（设备内拷贝）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommMatrixView</name>
    <message>
        <source> (group-local ranks)</source>
        <translation>（通信域内卡号）</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Transit size</source>
        <translation>传输大小</translation>
    </message>
    <message>
        <source>Transit time</source>
        <translation>传输时间</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>total of %1 link(s)</source>
        <translation>共 %1 条链路</translation>
    </message>
    <message>
        <source>No communication links for this selection</source>
        <translation>当前选择没有通信链路</translation>
    </message>
    <message>
        <source>group-local ranks, global ranks unknown</source>
        <translation>通信域内卡号，全局卡号未知</translation>
    </message>
    <message>
        <source>Costliest collectives of link %1–%2</source>
        <translation>链路 %1–%2 代价最大的集合通信</translation>
    </message>
    <message>
        <source>%1 × %1 ranks</source>
        <translation>%1 × %1 张卡</translation>
    </message>
    <message>
        <source>zoom %1×</source>
        <translation>缩放 %1×</translation>
    </message>
    <message>
        <source>min bandwidth</source>
        <translation>最低带宽</translation>
    </message>
    <message>
        <source>sum of sizes</source>
        <translation>大小之和</translation>
    </message>
    <message>
        <source>max time</source>
        <translation>最长时间</translation>
    </message>
    <message>
        <source>Rows: src rank · columns: dst rank · %1 ranks</source>
        <translation>行：源卡 · 列：目的卡 · 共 %1 张卡</translation>
    </message>
    <message>
        <source>ordered by %1 groups</source>
        <translation>按 %1 通信组排序</translation>
    </message>
    <message>
        <source>group</source>
        <translation>通信组</translation>
    </message>
    <message>
        <source>%1 ranks: %2</source>
        <translation>%1 张卡：%2</translation>
    </message>
    <message>
        <source>hash %1</source>
        <translation>哈希 %1</translation>
    </message>
    <message>
        <source>the lowest bandwidth of the block&apos;s links</source>
        <translation>该块内链路的最低带宽</translation>
    </message>
    <message>
        <source>the summed transit size of the block&apos;s links</source>
        <translation>该块内链路的传输量之和</translation>
    </message>
    <message>
        <source>the longest transit time of the block&apos;s links</source>
        <translation>该块内链路的最长传输时间</translation>
    </message>
    <message>
        <source>the transport the block&apos;s links share (“mixed” when they differ)</source>
        <translation>该块内链路共用的传输方式（不同时为“mixed”）</translation>
    </message>
    <message>
        <source>&lt;b&gt;src %1 → dst %2&lt;/b&gt;&lt;br&gt;a block of %3 × %4 ranks</source>
        <translation>&lt;b&gt;源 %1 → 目的 %2&lt;/b&gt;&lt;br&gt;%3 × %4 张卡的块</translation>
    </message>
    <message>
        <source>no links</source>
        <translation>无链路</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Lowest bandwidth</source>
        <translation>最低带宽</translation>
    </message>
    <message>
        <source>Summed size</source>
        <translation>大小之和</translation>
    </message>
    <message>
        <source>Longest time</source>
        <translation>最长时间</translation>
    </message>
    <message>
        <source>Cell colour: %1.</source>
        <translation>单元格颜色：%1。</translation>
    </message>
    <message>
        <source>Click selects link %1 → %2; zoom in for single ranks.</source>
        <translation>单击选中链路 %1 → %2；放大可查看单张卡。</translation>
    </message>
    <message>
        <source>shared transport</source>
        <translation>共用传输方式</translation>
    </message>
    <message>
        <source>Drawing the matrix…</source>
        <translation>正在绘制矩阵…</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommRankChart</name>
    <message>
        <source>Per rank: communication cost (Elapsed) and wait cost (MindSpore hccl_raw: separate figures, wait is not part of elapsed)</source>
        <translation>各卡：通信代价（耗时）和等待代价（MindSpore hccl_raw：两个独立数值，等待不含在耗时中）</translation>
    </message>
    <message>
        <source>Per rank: Transit + Wait + Idle = Elapsed</source>
        <translation>各卡：传输 + 等待 + 空闲 = 耗时</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt; (%2 ops)&lt;br&gt;Elapsed %3&lt;br&gt;Transit %4&lt;br&gt;Wait %5 (ratio %6)&lt;br&gt;Sync %7&lt;br&gt;Idle %8</source>
        <translation>&lt;b&gt;卡 %1&lt;/b&gt;（%2 个算子）&lt;br&gt;耗时 %3&lt;br&gt;传输 %4&lt;br&gt;等待 %5（比例 %6）&lt;br&gt;同步 %7&lt;br&gt;空闲 %8</translation>
    </message>
    <message>
        <source>No communication ops</source>
        <translation>无通信算子</translation>
    </message>
    <message>
        <source>Elapsed (communication cost)</source>
        <translation>耗时（通信开销）</translation>
    </message>
    <message>
        <source>Wait (wait cost)</source>
        <translation>等待（等待开销）</translation>
    </message>
    <message>
        <source>Transit</source>
        <translation>传输</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommSelectionBar</name>
    <message>
        <source>Communication selection</source>
        <translation>通信选择</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Group:</source>
        <translation>通信域：</translation>
    </message>
    <message>
        <source>Op:</source>
        <translation>算子：</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有通信域</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>%1 · %2 ranks · …%3</source>
        <translation>%1 · %2 张卡 · …%3</translation>
    </message>
    <message>
        <source>%1 · %2 ranks</source>
        <translation>%1 · %2 张卡</translation>
    </message>
    <message>
        <source>All ops</source>
        <translation>所有算子</translation>
    </message>
    <message>
        <source>All steps (total): times and sizes summed over every step; bandwidth is the total size divided by the total transit time</source>
        <translation>所有迭代（合计）：时间与数据量为各迭代之和；带宽 = 总数据量 ÷ 总传输时间</translation>
    </message>
    <message>
        <source>All steps (total)</source>
        <translation>所有迭代（合计）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CommandPalette</name>
    <message>
        <source>Go to a view, action, rank, step or operator…</source>
        <translation>转到视图、操作、卡、迭代或算子…</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>%1 of %2 matches shown</source>
        <translation>显示 %2 个匹配中的 %1 个</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CompareDock</name>
    <message>
        <source>Compare</source>
        <translation>性能比对</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Δ per rank of</source>
        <translation>每卡 Δ：</translation>
    </message>
    <message>
        <source>Categories</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>No profile loaded.</source>
        <translation>未加载性能数据。</translation>
    </message>
    <message>
        <source>No baseline to compare with.

Choose one with File → Compare with…, drop a folder on the window with Ctrl (or Shift) held, or start %1.
The opened profile is the new run; the baseline may be any input npuscope opens, a GPU trace too.</source>
        <translation>没有可比较的基线。

可通过“文件 → 与…比较”选择，按住 Ctrl（或 Shift）将文件夹拖到窗口上，或以 %1 启动。
当前打开的数据为新运行；基线可以是 npuscope 能打开的任何输入，包括 GPU 的跟踪文件（trace）。</translation>
    </message>
    <message>
        <source>Comparing with the baseline…</source>
        <translation>正在与基线比较…</translation>
    </message>
    <message>
        <source>Base: %1 → new: %2</source>
        <translation>基线：%1 → 新：%2</translation>
    </message>
    <message>
        <source> · unmatched ranks: %1 only in base, %2 only in new</source>
        <translation> · 未匹配的卡：%1 张仅在基线中，%2 张仅在新运行中</translation>
    </message>
    <message>
        <source> · %1 GPU kernels without a category (Categories tab: “unmapped GPU kernel”)</source>
        <translation> · %1 个 GPU 核函数无类别（类别页：“unmapped GPU kernel”）</translation>
    </message>
    <message numerus="yes">
        <source>%n rank</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ranks</source>
        <translation>
            <numerusform>%n 张卡</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>mean of %n step</source>
        <translation>
            <numerusform>%n 个迭代的均值</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>mean of %n steps</source>
        <translation>
            <numerusform>%n 个迭代的均值</numerusform>
        </translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>whole range as one step</source>
        <translation>整个范围作为一个迭代</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1（%2，%3）</translation>
    </message>
    <message>
        <source>Not comparable as is: %1.</source>
        <translation>不能直接比较：%1。</translation>
    </message>
</context>
<context>
    <name>CoreClass</name>
    <message>
        <source>AI Core</source>
        <translation>AI Core</translation>
    </message>
    <message>
        <source>AI Vector</source>
        <translation>AI Vector</translation>
    </message>
    <message>
        <source>MIX</source>
        <translation>MIX</translation>
    </message>
    <message>
        <source>AI CPU</source>
        <translation>AI CPU</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::CriticalPathDock</name>
    <message>
        <source>Critical path</source>
        <translation>关键路径</translation>
    </message>
    <message>
        <source>Show in timeline</source>
        <translation>在时间线中显示</translation>
    </message>
    <message>
        <source>Draw the path&apos;s stays on each rank in the Timeline, linked in order</source>
        <translation>在时间线中按顺序连接绘制路径在各 rank 上的停留</translation>
    </message>
    <message>
        <source>What if:</source>
        <translation>假设：</translation>
    </message>
    <message>
        <source>e.g. rank=37:compute=0.8 op=MatMulV2:0.9 link=40-41:bandwidth=2 rank=5:host=ideal</source>
        <translation>例如 rank=37:compute=0.8 op=MatMulV2:0.9 link=40-41:bandwidth=2 rank=5:host=ideal</translation>
    </message>
    <message>
        <source>Changes separated by spaces: rank=R:compute=F, op=NAME:F, rank=R:op=NAME:F, link=A-B:bandwidth=F, rank=R:host=ideal (docs/metrics.md, “What-if”)</source>
        <translation>以空格分隔的修改：rank=R:compute=F、op=NAME:F、rank=R:op=NAME:F、link=A-B:bandwidth=F、rank=R:host=ideal（docs/metrics.md，“What-if”）</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>No step with device tasks or communication ops</source>
        <translation>没有包含设备任务或通信算子的步</translation>
    </message>
    <message>
        <source>Loading the step&apos;s kernels of every rank and building its dependency graph…</source>
        <translation>正在加载各 rank 该步的 kernel 并构建依赖图…</translation>
    </message>
    <message>
        <source>No critical path: this step has no kernels with a step id and no timed communication ops (docs/metrics.md, “Critical path”)</source>
        <translation>无关键路径：该步没有带步 ID 的 kernel，也没有带时间的通信算子（docs/metrics.md，“Critical path”）</translation>
    </message>
    <message>
        <source>No critical path for this step</source>
        <translation>该步无关键路径</translation>
    </message>
    <message>
        <source>Step %1: critical path %2 ms = the step time of its slowest rank %3; %4 segments on %5 stays across ranks. Compute %6, communication %7, host %8, idle %9</source>
        <translation>步 %1：关键路径 %2 ms = 最慢 rank %3 的步时间；%4 个片段，跨 rank 停留 %5 次。计算 %6，通信 %7，Host %8，空闲 %9</translation>
    </message>
    <message>
        <source>rank %1 %2 ms (%3)</source>
        <translation>rank %1 %2 ms（%3）</translation>
    </message>
    <message>
        <source>Most of the path</source>
        <translation>占路径最多</translation>
    </message>
    <message>
        <source>The path by rank, in time order</source>
        <translation>按 rank 的路径（按时间顺序）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Longest op</source>
        <translation>最长算子</translation>
    </message>
    <message>
        <source>Send/receive links on the path</source>
        <translation>路径上的 Send/Receive 链路</translation>
    </message>
    <message>
        <source>%1→%2 %3 ms</source>
        <translation>%1→%2 %3 ms</translation>
    </message>
    <message>
        <source>Communication ops with the most serial time</source>
        <translation>串行时间最多的通信算子</translation>
    </message>
    <message>
        <source>not overlapped by any other task of the rank; summed over the ranks</source>
        <translation>未被该 rank 其他任务掩盖；对各 rank 求和</translation>
    </message>
    <message>
        <source>serial %1 ms, parallel %2 ms over %3</source>
        <translation>串行 %1 ms，并行 %2 ms，共 %3 次</translation>
    </message>
    <message>
        <source>Critical path (step %1)</source>
        <translation>关键路径（步 %1）</translation>
    </message>
    <message>
        <source>No critical path to replay yet</source>
        <translation>尚无可重放的关键路径</translation>
    </message>
    <message>
        <source>Replaying…</source>
        <translation>正在重放…</translation>
    </message>
    <message>
        <source>Nothing to replay</source>
        <translation>没有可重放的内容</translation>
    </message>
    <message>
        <source>Measured %1 ms (rank %2), predicted &lt;b&gt;%3 ms&lt;/b&gt; (rank %4): gain %5 ms (%6). New path: compute %7, communication %8, host %9, idle %10.</source>
        <translation>实测 %1 ms（rank %2），预测 &lt;b&gt;%3 ms&lt;/b&gt;（rank %4）：收益 %5 ms（%6）。新路径：计算 %7，通信 %8，Host %9，空闲 %10。</translation>
    </message>
    <message>
        <source>(No change: the measured step replayed, a self-check.)</source>
        <translation>（无修改：重放实测步，用于自检。）</translation>
    </message>
    <message>
        <source>Matched nothing: %1</source>
        <translation>未匹配任何内容：%1</translation>
    </message>
    <message>
        <source>Replay the step on its dependency graph with these changes</source>
        <translation>按这些修改在依赖图上重放该步</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::DeferredLoadService</name>
    <message>
        <source>Timeline import</source>
        <translation>时间线导入</translation>
    </message>
    <message>
        <source>Kernel import</source>
        <translation>核函数导入</translation>
    </message>
    <message>
        <source>Memory import</source>
        <translation>内存数据导入</translation>
    </message>
    <message>
        <source>Kernel totals import</source>
        <translation>核函数汇总导入</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::DeviceHeatmap</name>
    <message>
        <source>No ranks loaded</source>
        <translation>未加载任何卡</translation>
    </message>
    <message>
        <source>ranks %1–%2</source>
        <translation>卡 %1–%2</translation>
    </message>
</context>
<context>
    <name>DivergingScale</name>
    <message>
        <source>Colour: deviation from the column&apos;s median over ranks, %1 neutral (so is a difference within %1 of the median step wall time), full at %2 (warm: more than the median, cool: less)</source>
        <translation>颜色：与该列各卡中位数的偏差，%1 以内为中性（与中位数之差在迭代墙钟时间中位数的 %1 以内时也是中性），%2 时颜色最深（暖色：高于中位数，冷色：低于中位数）</translation>
    </message>
</context>
<context>
    <name>DockControls</name>
    <message>
        <source>Step:</source>
        <translation>步：</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::FlopsHeatmap</name>
    <message>
        <source>FLOPs ÷ busiest device (low = alarm)</source>
        <translation>FLOPs ÷ 最忙设备（低 = 告警）</translation>
    </message>
    <message>
        <source>FLOPS ÷ fastest device (low = alarm)</source>
        <translation>FLOPS ÷ 最快设备（低 = 告警）</translation>
    </message>
    <message>
        <source>no FLOPs (kernels not loaded or not recorded)</source>
        <translation>无 FLOPs（核函数未加载或未记录）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>kernels not loaded yet</source>
        <translation>核函数尚未加载</translation>
    </message>
    <message>
        <source>no kernel carries FLOPs</source>
        <translation>没有核函数记录 FLOPs</translation>
    </message>
    <message>
        <source>no kernel rows</source>
        <translation>无核函数数据</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Compute time</source>
        <translation>计算时间</translation>
    </message>
    <message>
        <source>FLOPS</source>
        <translation>FLOPS</translation>
    </message>
    <message>
        <source>FLOPS (mean per op)</source>
        <translation>FLOPS（每算子均值）</translation>
    </message>
    <message>
        <source>Utilisation (mean per op)</source>
        <translation>利用率（每算子均值）</translation>
    </message>
    <message>
        <source>FLOPs ÷ busiest</source>
        <translation>FLOPs ÷ 最忙</translation>
    </message>
    <message>
        <source>FLOPS ÷ fastest</source>
        <translation>FLOPS ÷ 最快</translation>
    </message>
    <message>
        <source>Kernels counted</source>
        <translation>统计的核函数数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>flops_summary_N.json (whole run)</source>
        <translation>flops_summary_N.json（整个运行）</translation>
    </message>
    <message>
        <source>FLOPS (as reported)</source>
        <translation>FLOPS（文件所报）</translation>
    </message>
    <message>
        <source>Cube FLOPs</source>
        <translation>Cube FLOPs</translation>
    </message>
    <message>
        <source>Vector FLOPs</source>
        <translation>Vector FLOPs</translation>
    </message>
    <message>
        <source>Cube FLOPS</source>
        <translation>Cube FLOPS</translation>
    </message>
    <message>
        <source>Vector FLOPS</source>
        <translation>Vector FLOPS</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::FlopsHeatmapDock</name>
    <message>
        <source>FLOPs heatmap</source>
        <translation>FLOPs 热力图</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>FLOPs ÷ busiest device</source>
        <translation>FLOPs ÷ 最忙设备</translation>
    </message>
    <message>
        <source>FLOPS ÷ fastest device</source>
        <translation>FLOPS ÷ 最快设备</translation>
    </message>
    <message>
        <source>FLOPs: the floating-point operations a device&apos;s kernels executed. FLOPS: those FLOPs ÷ the time of the kernels that carry them.</source>
        <translation>FLOPs：设备上核函数执行的浮点运算次数。FLOPS：这些 FLOPs ÷ 记录它们的核函数的耗时。</translation>
    </message>
    <message>
        <source>Sum over every step instead of the selected one (with no step selected every step is summed anyway)</source>
        <translation>对所有迭代求和，而不只是所选迭代（未选迭代时本来就对所有迭代求和）</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>rank %1: kernels not loaded: %2</source>
        <translation>卡 %1：核函数未加载：%2</translation>
    </message>
    <message>
        <source>kernels loaded for %1 of %2 ranks</source>
        <translation>已加载 %2 张卡中 %1 张的核函数</translation>
    </message>
    <message>
        <source> (the rest load when this view is shown)</source>
        <translation>（其余在显示本视图时加载）</translation>
    </message>
    <message>
        <source> · step %1</source>
        <translation> · 迭代 %1</translation>
    </message>
    <message>
        <source> (flops_summary_N.json figures are for the whole run)</source>
        <translation>（flops_summary_N.json 的数值针对整个运行）</translation>
    </message>
    <message>
        <source>&lt;b&gt;No loaded kernel carries FLOPs.&lt;/b&gt;&lt;br&gt;%1.&lt;br&gt;Ranks checked: %2.</source>
        <translation>&lt;b&gt;已加载的核函数都没有 FLOPs。&lt;/b&gt;&lt;br&gt;%1。&lt;br&gt;已检查的卡：%2。</translation>
    </message>
    <message>
        <source>All steps (total)</source>
        <translation>所有迭代（合计）</translation>
    </message>
    <message>
        <source> · all steps (total)</source>
        <translation> · 所有迭代（合计）</translation>
    </message>
    <message>
        <source> · all steps (total), as no step is selected</source>
        <translation> · 所有迭代（合计），因为未选择迭代</translation>
    </message>
</context>
<context>
    <name>FlopsQuery</name>
    <message>
        <source>FLOPs are recorded only with aic_metrics=ArithmeticUtilization (torch_npu experimental_config aic_metrics=AiCMetrics.ArithmeticUtilization, or msprof --aic-metrics=ArithmeticUtilization)</source>
        <translation>仅在 aic_metrics=ArithmeticUtilization 时记录 FLOPs（torch_npu experimental_config aic_metrics=AiCMetrics.ArithmeticUtilization，或 msprof --aic-metrics=ArithmeticUtilization）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::FlopsScopeChart</name>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Share of the total</source>
        <translation>占总量比例</translation>
    </message>
    <message>
        <source>Share of the parent</source>
        <translation>占父作用域比例</translation>
    </message>
    <message>
        <source>In the scope itself</source>
        <translation>作用域自身</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>&lt;i&gt;This scope name has several parents in the file; its sub-scopes are divided among them by FLOPs.&lt;/i&gt;</source>
        <translation>&lt;i&gt;该作用域名在文件中有多个父作用域；其子作用域按 FLOPs 比例分配给各父作用域。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>No FLOPs per scope (flops_scope_N.json) for this rank</source>
        <translation>该 Rank 没有按作用域的 FLOPs（flops_scope_N.json）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::FlopsScopeDock</name>
    <message>
        <source>FLOPs by scope</source>
        <translation>按作用域的 FLOPs</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>The rank whose flops_scope_N.json is shown (ranks without one are not listed)</source>
        <translation>显示其 flops_scope_N.json 的 Rank（没有该文件的 Rank 不列出）</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>No flops_scope_N.json loaded (MindSpore&apos;s FLOPs per scope)</source>
        <translation>未加载 flops_scope_N.json（MindSpore 按作用域统计的 FLOPs）</translation>
    </message>
    <message>
        <source>Total %1 · %2 scopes · %3 levels</source>
        <translation>总计 %1 · %2 个作用域 · %3 层</translation>
    </message>
    <message>
        <source>%1: %2 (%3 % of the total)</source>
        <translation>%1：%2（占总量的 %3 %）</translation>
    </message>
    <message>
        <source> · tree cut at 20,000 scopes or 64 levels</source>
        <translation> · 作用域树在 20,000 个作用域或 64 层处截断</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::GroupTableModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <source>The group hash ops and links are tagged with (the @ suffix of an op name)</source>
        <translation>算子和链路所标记的通信域哈希（算子名的 @ 后缀）</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Number of ranks in the group</source>
        <translation>通信域中的卡数</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Number of communication ops of the group, over all ranks and steps</source>
        <translation>该通信域在所有卡和迭代上的通信算子数</translation>
    </message>
    <message>
        <source>Membership from</source>
        <translation>成员来源</translation>
    </message>
    <message>
        <source>Where the group&apos;s global ranks come from</source>
        <translation>该通信域全局卡号的来源</translation>
    </message>
    <message>
        <source>Global ranks</source>
        <translation>全局卡号</translation>
    </message>
    <message>
        <source>The group&apos;s global ranks</source>
        <translation>通信域的全局卡号</translation>
    </message>
    <message>
        <source>raw HCCL group id: %1</source>
        <translation>原始 HCCL 通信域 ID：%1</translation>
    </message>
    <message>
        <source>No communication ops are loaded (no communication.json or communication tables)</source>
        <translation>未加载通信算子（没有 communication.json 或通信表）</translation>
    </message>
    <message>
        <source>%1 group listed in communication_group.json without a group hash: no op or link names it</source>
        <translation>communication_group.json 中列出的 %1 通信域没有哈希：没有算子或链路引用它</translation>
    </message>
    <message>
        <source>elapse</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>ms/step</source>
        <translation>ms/步</translation>
    </message>
    <message>
        <source>profiler_metadata.json</source>
        <translation>profiler_metadata.json</translation>
    </message>
    <message>
        <source>self-links</source>
        <translation>自环链路</translation>
    </message>
    <message>
        <source>self-links + identity</source>
        <translation>自环链路 + 恒等推断</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Group name: tp, pp, dp … from profiler_metadata.json or communication_group.json, else “group” and its first ranks (the Hash column has the hash)</source>
        <translation>通信域名称：tp、pp、dp …，来自 profiler_metadata.json 或 communication_group.json，否则为“通信域”加其前几个卡号（哈希见“哈希”列）</translation>
    </message>
</context>
<context>
    <name>GroupText</name>
    <message>
        <source>group</source>
        <translation>通信域</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::GroupsDock</name>
    <message>
        <source>Communication groups</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有通信域</translation>
    </message>
    <message>
        <source>1 group</source>
        <translation>1 个通信域</translation>
    </message>
    <message>
        <source>%1 groups</source>
        <translation>%1 个通信域</translation>
    </message>
    <message>
        <source> · click one to filter the communication views</source>
        <translation> · 单击一个以筛选通信视图</translation>
    </message>
    <message>
        <source> · </source>
        <translation> · </translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
</context>
<context>
    <name>HelpDialogs</name>
    <message>
        <source>Everywhere</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>Ctrl+O</source>
        <translation>Ctrl+O</translation>
    </message>
    <message>
        <source>Open a profiling folder (or drop folders on the window)</source>
        <translation>打开性能数据文件夹（或将文件夹拖到窗口）</translation>
    </message>
    <message>
        <source>F1, ?</source>
        <translation>F1, ?</translation>
    </message>
    <message>
        <source>This sheet</source>
        <translation>本帮助</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Select a rank (or step, group, op): every view follows it</source>
        <translation>选中一张卡（或迭代、通信域、算子）：所有视图同步跟随</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Ctrl+C</source>
        <translation>Ctrl+C</translation>
    </message>
    <message>
        <source>Copy the selected table rows (tab-separated, with the header)</source>
        <translation>复制表格中选中的行（制表符分隔，含表头）</translation>
    </message>
    <message>
        <source>Right click</source>
        <translation>右键</translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>W / S</source>
        <translation>W / S</translation>
    </message>
    <message>
        <source>Zoom in / out at the mouse</source>
        <translation>以鼠标位置为中心放大 / 缩小</translation>
    </message>
    <message>
        <source>A / D</source>
        <translation>A / D</translation>
    </message>
    <message>
        <source>Pan left / right</source>
        <translation>向左 / 向右平移</translation>
    </message>
    <message>
        <source>Ctrl+wheel</source>
        <translation>Ctrl+滚轮</translation>
    </message>
    <message>
        <source>Zoom at the mouse</source>
        <translation>以鼠标位置为中心缩放</translation>
    </message>
    <message>
        <source>Shift+wheel</source>
        <translation>Shift+滚轮</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Select a time range (its statistics show in Area statistics)</source>
        <translation>选择时间范围（统计结果显示在“区域统计”中）</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>Fit the range, else the selected slice, else everything</source>
        <translation>适配所选范围，否则适配所选切片，否则显示全部</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>Fit everything</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <source>Undo the last zoom</source>
        <translation>撤销上一次缩放</translation>
    </message>
    <message>
        <source>M</source>
        <translation>M</translation>
    </message>
    <message>
        <source>Put a marker at the mouse</source>
        <translation>在鼠标位置添加标记</translation>
    </message>
    <message>
        <source>Clear the selected slice and range</source>
        <translation>清除所选切片和范围</translation>
    </message>
    <message>
        <source>Metrics (as docs/metrics.md defines them)</source>
        <translation>指标（定义见 docs/metrics.md）</translation>
    </message>
    <message>
        <source>&lt;h3&gt;What can I open?&lt;/h3&gt;&lt;p&gt;A folder written by an Ascend profiler, or a folder that holds several of them (one per rank):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;torch_npu: &lt;code&gt;*_ascend_pt&lt;/code&gt; folders with &lt;code&gt;ASCEND_PROFILER_OUTPUT&lt;/code&gt; (CSV/JSON or &lt;code&gt;ascend_pytorch_profiler*.db&lt;/code&gt;)&lt;/li&gt;&lt;li&gt;MindSpore: &lt;code&gt;*_ascend_ms&lt;/code&gt; folders, or a &lt;code&gt;profiler&lt;/code&gt; folder with &lt;code&gt;step_trace_raw_*&lt;/code&gt; files&lt;/li&gt;&lt;li&gt;CANN msprof: &lt;code&gt;PROF_*&lt;/code&gt; folders (&lt;code&gt;mindstudio_profiler_output&lt;/code&gt; or &lt;code&gt;msprof_*.db&lt;/code&gt;)&lt;/li&gt;&lt;li&gt;msprof-analyze: &lt;code&gt;cluster_analysis_output&lt;/code&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Drop the folder on the window or use File → Open folder. The demo on the welcome page is two ranks of a real torch_npu job.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;可以打开哪些数据？&lt;/h3&gt;&lt;p&gt;昇腾性能采集工具输出的文件夹，或包含多个此类文件夹（每张卡一个）的目录：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;torch_npu：含 &lt;code&gt;ASCEND_PROFILER_OUTPUT&lt;/code&gt; 的 &lt;code&gt;*_ascend_pt&lt;/code&gt; 文件夹（CSV/JSON 或 &lt;code&gt;ascend_pytorch_profiler*.db&lt;/code&gt;）&lt;/li&gt;&lt;li&gt;MindSpore：&lt;code&gt;*_ascend_ms&lt;/code&gt; 文件夹，或含 &lt;code&gt;step_trace_raw_*&lt;/code&gt; 文件的 &lt;code&gt;profiler&lt;/code&gt; 文件夹&lt;/li&gt;&lt;li&gt;CANN msprof：&lt;code&gt;PROF_*&lt;/code&gt; 文件夹（&lt;code&gt;mindstudio_profiler_output&lt;/code&gt; 或 &lt;code&gt;msprof_*.db&lt;/code&gt;）&lt;/li&gt;&lt;li&gt;msprof-analyze：&lt;code&gt;cluster_analysis_output&lt;/code&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;将文件夹拖到窗口，或使用 文件 → 打开文件夹。欢迎页上的示例是一个真实 torch_npu 任务中的两张卡。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;npuscope %1&lt;/h3&gt;&lt;p&gt;A viewer for Huawei Ascend NPU training profiles, from one rank to thousands.&lt;/p&gt;&lt;p&gt;Qt %2 (built with %3) · SQLite %4&lt;/p&gt;&lt;p&gt;npuscope is licensed under the Apache License 2.0. It uses Qt (LGPL v3), SQLite (public domain), nlohmann/json (MIT), spdlog and fmt (MIT).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;npuscope %1&lt;/h3&gt;&lt;p&gt;华为昇腾 NPU 训练性能数据查看工具，支持单卡到数千卡。&lt;/p&gt;&lt;p&gt;Qt %2（构建于 %3）· SQLite %4&lt;/p&gt;&lt;p&gt;npuscope 采用 Apache License 2.0 许可。使用了 Qt（LGPL v3）、SQLite（公有领域）、nlohmann/json（MIT）、spdlog 和 fmt（MIT）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Shortcuts and metrics</source>
        <translation>快捷键与指标</translation>
    </message>
    <message>
        <source>What can I open?</source>
        <translation>可以打开哪些数据？</translation>
    </message>
    <message>
        <source>About npuscope</source>
        <translation>关于 npuscope</translation>
    </message>
    <message>
        <source>Clear the selected ranks, operator and collective instance</source>
        <translation>清除所选的卡、算子和集合通信实例</translation>
    </message>
    <message>
        <source>Tables: Copy rows, Export CSV… (also on the toolbar above each table); charts: Save image… (PNG or SVG)</source>
        <translation>表格：复制行、导出 CSV…（也在每个表格上方的工具栏中）；图表：保存图片…（PNG 或 SVG）</translation>
    </message>
    <message>
        <source>Ctrl+K, Ctrl+Shift+P</source>
        <translation>Ctrl+K, Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>Go to a view, menu action, rank, step or operator by typing its name (Enter goes there)</source>
        <translation>输入名称转到视图、菜单操作、卡、迭代或算子（回车前往）</translation>
    </message>
    <message>
        <source>Ctrl+1 … Ctrl+9</source>
        <translation>Ctrl+1 … Ctrl+9</translation>
    </message>
    <message>
        <source>Cluster steps, Timeline, Overview, Advice, Blame, Operators, Communication matrix, Collectives, Marey</source>
        <translation>集群迭代、时间线、总览、专家建议、等待归因、算子、通信矩阵、集合通信、Marey 视图</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::IssueTableModel</name>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Severity of the issue: error, warning or info</source>
        <translation>问题的严重程度：错误、警告或提示</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>The rank whose files the issue is about; empty when it concerns the whole load</source>
        <translation>问题所涉及文件所属的卡；涉及整个加载时为空</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>The file (folder and name; the full path is in the cell&apos;s tooltip)</source>
        <translation>文件（文件夹和名称；完整路径见单元格提示）</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Line in the file (1-based), when known</source>
        <translation>文件中的行号（从 1 开始，已知时）</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>What went wrong while importing</source>
        <translation>导入时出现的问题</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>提示</translation>
    </message>
</context>
<context>
    <name>LayoutSource</name>
    <message>
        <source>user sizes</source>
        <translation>用户指定的并行度</translation>
    </message>
    <message>
        <source>parallel groups</source>
        <translation>并行通信组</translation>
    </message>
    <message>
        <source>distributed_args</source>
        <translation>distributed_args</translation>
    </message>
    <message>
        <source>MindSpore stageDevices</source>
        <translation>MindSpore stageDevices</translation>
    </message>
    <message>
        <source>fallback</source>
        <translation>兜底推断</translation>
    </message>
    <message>
        <source>pipeline-parallel file names</source>
        <translation>pipeline-parallel 文件名</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::LinkTableModel</name>
    <message>
        <source>Src</source>
        <translation>源卡</translation>
    </message>
    <message>
        <source>Sending rank (global; L&lt;n&gt;: rank local to the group)</source>
        <translation>发送卡（全局卡号；L&lt;n&gt;：通信域内卡号）</translation>
    </message>
    <message>
        <source>Dst</source>
        <translation>目的卡</translation>
    </message>
    <message>
        <source>Receiving rank (global; L&lt;n&gt;: rank local to the group)</source>
        <translation>接收卡（全局卡号；L&lt;n&gt;：通信域内卡号）</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Transport type of the link (HCCS, PCIE, RDMA, SDMA, SIO, LOCAL)</source>
        <translation>链路的传输类型（HCCS、PCIE、RDMA、SDMA、SIO、LOCAL）</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Σ Transit Time of the link over its ops (ms)</source>
        <translation>该链路所有算子的 Σ 传输时间 (ms)</translation>
    </message>
    <message>
        <source>Size (MB)</source>
        <translation>大小 (MB)</translation>
    </message>
    <message>
        <source>Σ Transit Size of the link over its ops (MB, 10^6 B)</source>
        <translation>该链路所有算子的 Σ 传输大小 (MB，10^6 B)</translation>
    </message>
    <message>
        <source>Bandwidth (GB/s)</source>
        <translation>带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Σ transit size / Σ transit time of the link&apos;s ops (total slot)</source>
        <translation>该链路算子的 Σ 传输大小 / Σ 传输时间（总计）</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Communication op type of the link&apos;s ops</source>
        <translation>该链路算子的通信算子类型</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>Communication group of the link (tp, dp, … or its hash)</source>
        <translation>链路所属通信域（tp、dp … 或其哈希）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Step of the link&apos;s ops; all: summed over every step</source>
        <translation>链路算子所在迭代；all：对所有迭代求和</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Slowest op</source>
        <translation>最慢算子</translation>
    </message>
    <message>
        <source>The op with the longest transit time on this link</source>
        <translation>该链路上传输时间最长的算子</translation>
    </message>
    <message>
        <source>Group-local rank as written in communication_matrix.json: the global ranks of group %1 are unknown</source>
        <translation>communication_matrix.json 中的通信域内卡号：通信域 %1 的全局卡号未知</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::LinksDock</name>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Filtered by the step chosen in Cluster steps; click to show every step</source>
        <translation>按集群迭代中选择的迭代筛选；单击显示所有迭代</translation>
    </message>
    <message>
        <source>Filtered by the group chosen in another view; click to show every group</source>
        <translation>按其他视图中选择的通信域筛选；单击显示所有通信域</translation>
    </message>
    <message>
        <source>Src:</source>
        <translation>源卡：</translation>
    </message>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Dst:</source>
        <translation>目的卡：</translation>
    </message>
    <message>
        <source>Transport:</source>
        <translation>传输类型：</translation>
    </message>
    <message>
        <source>all but LOCAL</source>
        <translation>除 LOCAL 外全部</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>&lt;b&gt;Links of the selected rank&lt;/b&gt; — select a rank in any view</source>
        <translation>&lt;b&gt;所选卡的链路&lt;/b&gt; — 在任一视图中选择一张卡</translation>
    </message>
    <message>
        <source>&lt;b&gt;Links of rank %1&lt;/b&gt; (as src or dst): %2</source>
        <translation>&lt;b&gt;卡 %1 的链路&lt;/b&gt;（作为源或目的）：%2</translation>
    </message>
    <message>
        <source>step %1 ✕</source>
        <translation>迭代 %1 ✕</translation>
    </message>
    <message>
        <source>group %1 ✕</source>
        <translation>通信域 %1 ✕</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cluster links&lt;/b&gt; (slowest first): %1 of %2 shown — filter to narrow</source>
        <translation>&lt;b&gt;集群链路&lt;/b&gt;（最慢在前）：显示 %2 条中的 %1 条 — 可筛选缩小范围</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cluster links&lt;/b&gt; (slowest first): %1</source>
        <translation>&lt;b&gt;集群链路&lt;/b&gt;（最慢在前）：%1</translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>（无通信域）</translation>
    </message>
    <message>
        <source> · &lt;b&gt;group-local ranks&lt;/b&gt; (L&lt;i&gt;n&lt;/i&gt;): global ranks unknown for group %1</source>
        <translation> · &lt;b&gt;通信域内卡号&lt;/b&gt;（L&lt;i&gt;n&lt;/i&gt;）：通信域 %1 的全局卡号未知</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cluster links&lt;/b&gt;</source>
        <translation>&lt;b&gt;集群链路&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Costliest collectives of this link</source>
        <translation>该链路代价最大的集合通信</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MainWindow</name>
    <message>
        <source>Co&amp;mpare with…</source>
        <translation>与基线比较(&amp;M)…</translation>
    </message>
    <message>
        <source>Compare with &amp;trace file…</source>
        <translation>与 trace 文件比较(&amp;T)…</translation>
    </message>
    <message>
        <source>No view named “%1”</source>
        <translation>没有名为“%1”的视图</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Shortcuts and metrics</source>
        <translation>快捷键与指标(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;What can I open?</source>
        <translation>可以打开哪些数据(&amp;W)？</translation>
    </message>
    <message>
        <source>&amp;About npuscope</source>
        <translation>关于 npuscope(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;imported folder…</source>
        <translation>打开已导入的文件夹(&amp;I)…</translation>
    </message>
    <message>
        <source>Choose a folder of imported ranks (npuscope-cli import --out)</source>
        <translation>选择已导入各卡的文件夹（npuscope-cli import --out）</translation>
    </message>
    <message>
        <source>Rank files written by npuscope-cli import on the cluster: opened without parsing</source>
        <translation>在集群上由 npuscope-cli import 写出的各卡文件：打开时无需解析</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Use parse &amp;cache</source>
        <translation>使用解析缓存(&amp;C)</translation>
    </message>
    <message>
        <source>Keep what was parsed in %1 and reuse it while the input files are unchanged</source>
        <translation>将解析结果保存在 %1，输入文件未变化时直接复用</translation>
    </message>
    <message>
        <source>C&amp;lear parse cache</source>
        <translation>清除解析缓存(&amp;L)</translation>
    </message>
    <message>
        <source>Parse cache cleared: %1 MB freed</source>
        <translation>解析缓存已清除：释放 %1 MB</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Export advice report</source>
        <translation>导出专家建议报告</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML 文件 (*.html)</translation>
    </message>
    <message>
        <source>Save view &amp;image</source>
        <translation>保存视图图片(&amp;I)</translation>
    </message>
    <message>
        <source>(no view shown)</source>
        <translation>（未显示视图）</translation>
    </message>
    <message>
        <source>Save &amp;layout</source>
        <translation>保存布局(&amp;L)</translation>
    </message>
    <message>
        <source>Layout saved; File → Restore layout brings it back</source>
        <translation>布局已保存；文件 → 恢复布局 可还原</translation>
    </message>
    <message>
        <source>Restore la&amp;yout</source>
        <translation>恢复布局(&amp;Y)</translation>
    </message>
    <message>
        <source>No saved layout yet (File → Save layout)</source>
        <translation>尚未保存布局（文件 → 保存布局）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Show host &amp;IPs</source>
        <translation>显示主机 &amp;IP</translation>
    </message>
    <message>
        <source>Name hosts by their real IP from host_ips_mapping.txt instead of the mapping id</source>
        <translation>按 host_ips_mapping.txt 中的真实 IP 而非映射编号显示主机</translation>
    </message>
    <message>
        <source>Reset layout</source>
        <translation>重置布局</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>The new language applies when npuscope is started again</source>
        <translation>新语言将在重新启动 npuscope 后生效</translation>
    </message>
    <message>
        <source>Drop a profiling folder here, or use File → Open folder</source>
        <translation>将性能数据文件夹拖到此处，或使用 文件 → 打开文件夹</translation>
    </message>
    <message>
        <source>Problems found while importing; click to show them</source>
        <translation>导入时发现的问题；点击查看</translation>
    </message>
    <message>
        <source>Status bar</source>
        <translation>状态栏</translation>
    </message>
    <message>
        <source>problem</source>
        <translation>个问题</translation>
    </message>
    <message>
        <source>problems</source>
        <translation>个问题</translation>
    </message>
    <message>
        <source>No warnings or errors while importing</source>
        <translation>导入时没有警告或错误</translation>
    </message>
    <message>
        <source>%1 warnings and errors (Parse issues lists them with the info rows); click to show them</source>
        <translation>%1 个警告和错误（解析问题视图列出它们及提示信息）；点击查看</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Writing the report to %1…</source>
        <translation>正在写入报告到 %1…</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Open profiling folder</source>
        <translation>打开性能数据文件夹</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>No path given</source>
        <translation>未指定路径</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Detecting…</source>
        <translation>正在识别…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening profile</source>
        <translation>正在打开性能数据</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>正在加载 %1</translation>
    </message>
    <message>
        <source>Reading imported ranks
%1 of %2 ranks imported</source>
        <translation>正在读取已导入的卡
已导入 %1 / %2 张卡</translation>
    </message>
    <message>
        <source>
rank %1 of %2</source>
        <translation>
第 %1 / %2 张卡</translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation>加载已取消</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>张卡</translation>
    </message>
    <message>
        <source>ranks</source>
        <translation>张卡</translation>
    </message>
    <message>
        <source>step</source>
        <translation>个迭代</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>个迭代</translation>
    </message>
    <message>
        <source>Nothing loaded</source>
        <translation>未加载任何数据</translation>
    </message>
    <message>
        <source>What can I open?</source>
        <translation>可以打开哪些数据？</translation>
    </message>
    <message>
        <source>Choose the baseline folder</source>
        <translation>选择基线文件夹</translation>
    </message>
    <message>
        <source>Choose the baseline trace file</source>
        <translation>选择基线 trace 文件</translation>
    </message>
    <message>
        <source>Loading the baseline %1…</source>
        <translation>正在加载基线 %1…</translation>
    </message>
    <message>
        <source>Nothing usable found in %1 (see Parse issues)</source>
        <translation>在 %1 中没有找到可用的数据（见解析问题）</translation>
    </message>
    <message>
        <source>Baseline: %1</source>
        <translation>基线：%1</translation>
    </message>
    <message>
        <source>Baseline: loading…</source>
        <translation>基线：正在加载…</translation>
    </message>
    <message>
        <source>No Ascend profiling data found in %1.</source>
        <translation>在 %1 中未找到昇腾性能数据。</translation>
    </message>
    <message>
        <source>No ranks could be loaded</source>
        <translation>无法加载任何卡</translation>
    </message>
    <message>
        <source>✓ no import problems</source>
        <translation>✓ 导入无问题</translation>
    </message>
    <message>
        <source>&amp;Go to…</source>
        <translation>转到(&amp;G)…</translation>
    </message>
    <message>
        <source>Command palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <source>Stop loading: the ranks loaded so far stay</source>
        <translation>停止加载：已加载的卡保留</translation>
    </message>
    <message>
        <source>%1 · %2 of %3</source>
        <translation>%1 · %2 / %3</translation>
    </message>
    <message>
        <source>%1: %2 of %3 ranks; about %4 of memory</source>
        <translation>%1：%2 / %3 张卡；约需 %4 内存</translation>
    </message>
    <message>
        <source> (%1 available)</source>
        <translation>（可用 %1）</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>Reading the parse cache…</source>
        <translation>正在读取解析缓存…</translation>
    </message>
    <message>
        <source>Reading the joined imported ranks…</source>
        <translation>正在读取合并后的已导入卡…</translation>
    </message>
    <message>
        <source>Resolving communication groups (local link ranks to global ranks)…</source>
        <translation>正在解析通信域（将链路的域内卡号映射为全局卡号）…</translation>
    </message>
    <message>
        <source>Building the indexes…</source>
        <translation>正在建立索引…</translation>
    </message>
    <message>
        <source>Writing the parse cache for the next open…</source>
        <translation>正在写入解析缓存，供下次打开使用…</translation>
    </message>
    <message>
        <source>Merging the ranks…</source>
        <translation>正在合并各卡…</translation>
    </message>
    <message>
        <source> (%1 s)</source>
        <translation>（%1 秒）</translation>
    </message>
    <message>
        <source>Timeline › Expand all ranks</source>
        <translation>时间线 › 展开所有卡</translation>
    </message>
    <message>
        <source>Cancel background loading</source>
        <translation>取消后台加载</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>Advice: &lt;a href=&quot;advice&quot;&gt;%1&lt;/a&gt; %2</source>
        <translation>专家建议：&lt;a href=&quot;advice&quot;&gt;%1&lt;/a&gt; %2</translation>
    </message>
    <message>
        <source>The finding that explains the most of the step time; click to show Advice</source>
        <translation>解释迭代时间最多的建议；单击显示专家建议视图</translation>
    </message>
    <message>
        <source>Communication indexes</source>
        <translation>通信索引</translation>
    </message>
    <message>
        <source>copying the model to build them beside the views failed (%1); they are built on the model instead</source>
        <translation>复制模型以便在视图之外构建索引失败（%1）；改为在模型上构建</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MareyChart</name>
    <message>
        <source>No operators for this step</source>
        <translation>该迭代无算子</translation>
    </message>
    <message>
        <source>Stage %1 · %2 device(s)</source>
        <translation>阶段 %1 · %2 个设备</translation>
    </message>
    <message>
        <source> · collapsed: union per operator</source>
        <translation> · 已折叠：按算子取并集</translation>
    </message>
    <message>
        <source> · %1 unmatched op(s)</source>
        <translation> · %1 个未匹配算子</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source> (no ops)</source>
        <translation>（无算子）</translation>
    </message>
    <message>
        <source>since the device&apos;s step start</source>
        <translation>自该设备迭代开始</translation>
    </message>
    <message>
        <source>since the step&apos;s first operator</source>
        <translation>自迭代的第一个算子</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1&lt;/b&gt; (collapsed, %2 devices)</source>
        <translation>&lt;b&gt;阶段 %1&lt;/b&gt;（已折叠，%2 个设备）</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;%1&lt;/b&gt; #%2 (%3)&lt;br&gt;union from %4 to %5 (%6)</source>
        <translation>&lt;br&gt;&lt;b&gt;%1&lt;/b&gt; #%2（%3）&lt;br&gt;并集从 %4 到 %5（%6）</translation>
    </message>
    <message>
        <source>&lt;b&gt;rank %1&lt;/b&gt; · stage %2</source>
        <translation>&lt;b&gt;卡 %1&lt;/b&gt; · 阶段 %2</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 operator(s) in the step</source>
        <translation>&lt;br&gt;迭代中有 %1 个算子</translation>
    </message>
    <message>
        <source>&lt;br&gt;FLOPs ÷ max: %1&lt;br&gt;FLOPS ÷ max: %2&lt;br&gt;peak memory ÷ capacity: %3</source>
        <translation>&lt;br&gt;FLOPs ÷ 最大值：%1&lt;br&gt;FLOPS ÷ 最大值：%2&lt;br&gt;峰值内存 ÷ 容量：%3</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;%1&lt;/b&gt; #%2 (%3)&lt;br&gt;start %4, end %5 (%6)&lt;br&gt;duration %7</source>
        <translation>&lt;br&gt;&lt;b&gt;%1&lt;/b&gt; #%2（%3）&lt;br&gt;开始 %4，结束 %5（%6）&lt;br&gt;时长 %7</translation>
    </message>
    <message>
        <source>&lt;br&gt;unmatched: no neighbouring device of the stage has this operator</source>
        <translation>&lt;br&gt;未匹配：该阶段相邻设备都没有这个算子</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 GFLOPs, %2 TFLOP/s (the FLOPs line)</source>
        <translation>&lt;br&gt;%1 GFLOPs，%2 TFLOP/s（FLOPs 折线）</translation>
    </message>
    <message>
        <source>&lt;br&gt;memory at its start: %1 MB (%2, the memory line)</source>
        <translation>&lt;br&gt;开始时的内存：%1 MB（%2，内存折线）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MareyDock</name>
    <message>
        <source>Marey view</source>
        <translation>Marey 图</translation>
    </message>
    <message>
        <source>Time:</source>
        <translation>时间：</translation>
    </message>
    <message>
        <source>Absolute</source>
        <translation>绝对时间</translation>
    </message>
    <message>
        <source>Aligned at each device&apos;s step start</source>
        <translation>按各设备迭代开始对齐</translation>
    </message>
    <message>
        <source>Absolute: times as recorded. Aligned: each device&apos;s times since its first operator of the step, so devices line up at 0.</source>
        <translation>绝对：按记录的时间。对齐：各设备从其本迭代第一个算子起计时，使所有设备在 0 处对齐。</translation>
    </message>
    <message>
        <source>Collapse stages</source>
        <translation>折叠阶段</translation>
    </message>
    <message>
        <source>A collapsed stage is one line: per operator, the union of its devices&apos; intervals (clicking a stage label does the same)</source>
        <translation>折叠后的阶段显示为一行：每个算子取其各设备区间的并集（单击阶段标签效果相同）</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考值</translation>
    </message>
    <message>
        <source>Slow device: Σ of its compared ops. Stage-wide: the stage&apos;s median. One device: on the device.</source>
        <translation>慢设备：其比较算子之和。全阶段：该阶段的中位数。单设备：该设备上的值。</translation>
    </message>
    <message>
        <source>Slow device: Σ of the peers&apos; medians. Stage-wide: median of the name across all stages. One device: median of the stage&apos;s other devices.</source>
        <translation>慢设备：同组设备中位数之和。全阶段：该名称在所有阶段的中位数。单设备：该阶段其他设备的中位数。</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>ranks %1 to %2: kernels not loaded: %3</source>
        <translation>卡 %1 到 %2：核函数未加载：%3</translation>
    </message>
    <message>
        <source>kernels loaded for %1 of %2 ranks</source>
        <translation>已加载 %2 张卡中 %1 张的核函数</translation>
    </message>
    <message>
        <source> (the rest load when this view is shown)</source>
        <translation>（其余在显示本视图时加载）</translation>
    </message>
    <message>
        <source> · step %1</source>
        <translation> · 迭代 %1</translation>
    </message>
    <message>
        <source> · all kernels (no step ids)</source>
        <translation> · 全部核函数（无迭代 ID）</translation>
    </message>
    <message>
        <source> · %1 device(s) in %2 stage(s) · %3 operators · %4 unmatched · %5 send/receive pair(s)</source>
        <translation> · %2 个阶段中的 %1 个设备 · %3 个算子 · %4 个未匹配 · %5 对发送/接收</translation>
    </message>
    <message>
        <source>Stage %1 (%2 devices)</source>
        <translation>阶段 %1（%2 个设备）</translation>
    </message>
    <message>
        <source>No findings</source>
        <translation>无结论</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 slow device(s), %2 stage-wide, %3 one-device finding(s)&lt;/b&gt;&lt;br&gt;Slow device: compute time ≥ %4× its stage peers&apos; (same ops). Stage-wide: on ≥ %5 % of a stage&apos;s devices ≥ %6× the name&apos;s median or ≥ %7 % of the step. One device: ≥ %8× the peers&apos; median and ≥ %9 µs.</source>
        <translation>&lt;b&gt;%1 个慢设备，%2 个全阶段发现，%3 个单设备发现&lt;/b&gt;&lt;br&gt;慢设备：计算时间 ≥ 同阶段同组设备（相同算子）的 %4 倍。全阶段：在某阶段 ≥ %5 % 的设备上 ≥ 该名称中位数的 %6 倍或 ≥ 迭代的 %7 %。单设备：≥ 同组中位数的 %8 倍且 ≥ %9 µs。</translation>
    </message>
    <message>
        <source>Slow device %1×</source>
        <translation>慢设备 %1×</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Stage-wide %1/%2</source>
        <translation>全阶段 %1/%2</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>One device %1×</source>
        <translation>单设备 %1×</translation>
    </message>
    <message>
        <source> · %1 send(s) without a receive on a neighbouring stage</source>
        <translation> · %1 个发送在相邻阶段上没有对应的接收</translation>
    </message>
    <message>
        <source>No finding in this step: no device or stage is as slow as the thresholds above ask for.</source>
        <translation>本迭代没有发现：没有设备或阶段慢到上述阈值。</translation>
    </message>
    <message>
        <source>%1 compute %2 communication %3 send %4 receive %5 FLOP/s %6 memory · blocks: F = FLOPs (operations) ÷ max, FS = FLOP/s (their rate) ÷ max, M = peak memory ÷ capacity (grey: unknown) · drag to zoom, double-click to zoom out</source>
        <translation>%1 计算 %2 通信 %3 发送 %4 接收 %5 FLOP/s %6 内存 · 色块：F = 浮点运算次数 FLOPs ÷ 最大值，FS = 每秒浮点运算 FLOP/s ÷ 最大值，M = 峰值内存 ÷ 容量（灰色：未知）· 拖动缩放，双击缩小</translation>
    </message>
    <message>
        <source>The purple line above each device: each operator&apos;s FLOP/s (its kernel&apos;s FLOPs ÷ its duration) ÷ the step&apos;s fastest operator; only kernels with FLOPs. The blue line: the device&apos;s memory in use over the step (memory_record: PTA+GE, else APP, allocated), from its smallest value in the step to its largest (hover an operator for the value; the M block compares devices); the memory files load when the step has at most %1 devices.</source>
        <translation>每个设备上方的紫色折线：各算子的 FLOP/s（其核函数的 FLOPs ÷ 耗时）÷ 本迭代最快的算子；仅含有 FLOPs 的核函数。蓝色折线：该设备在本迭代中使用的内存（memory_record：PTA+GE，否则 APP，已分配），从其在本迭代中的最小值到最大值（悬停在算子上查看数值；M 色块用于比较设备）；迭代的设备数不超过 %1 时才加载内存文件。</translation>
    </message>
</context>
<context>
    <name>MareyOpKind</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>接收</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MemoryCurveChart</name>
    <message>
        <source>%1: %2 samples (click to %3)</source>
        <translation>%1：%2 个采样（单击以%3）</translation>
    </message>
    <message>
        <source>hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; after the first sample</source>
        <translation>第一个采样之后 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 µs (epoch)</source>
        <translation>&lt;br&gt;%1 µs（epoch）</translation>
    </message>
    <message>
        <source>&lt;br&gt;step %1</source>
        <translation>&lt;br&gt;迭代 %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>迭代 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MemoryDetailDock</name>
    <message>
        <source>Memory detail</source>
        <translation>内存详情</translation>
    </message>
    <message>
        <source>Filter names</source>
        <translation>筛选名称</translation>
    </message>
    <message>
        <source>Only blocks allocated or released in the selected window</source>
        <translation>仅显示在所选时间窗口内分配或释放的内存块</translation>
    </message>
    <message>
        <source>The window is the Workspace&apos;s: drag on the chart above or select a range in the timeline</source>
        <translation>窗口为工作区的时间窗口：在上方图表中拖动，或在时间线中选择范围</translation>
    </message>
    <message>
        <source>Clear window</source>
        <translation>清除时间窗口</translation>
    </message>
    <message>
        <source>Forget the selected time window (every view)</source>
        <translation>清除所选时间窗口（所有视图）</translation>
    </message>
    <message>
        <source>No ranks loaded.</source>
        <translation>未加载任何卡。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt;: %2 memory samples in %3 series, %4 operator blocks, %5 CANN modules</source>
        <translation>&lt;b&gt;卡 %1&lt;/b&gt;：%3 个序列中的 %2 个内存采样，%4 个算子内存块，%5 个 CANN 模块</translation>
    </message>
    <message>
        <source>; the timeline has no ProfilerStep slices</source>
        <translation>；时间线中没有 ProfilerStep 切片</translation>
    </message>
    <message>
        <source>; step boundaries appear once the rank&apos;s timeline is loaded (Timeline view)</source>
        <translation>；加载该卡的时间线后会显示迭代边界（时间线视图）</translation>
    </message>
    <message>
        <source>Rank %1 has no memory_record samples.</source>
        <translation>卡 %1 没有 memory_record 采样。</translation>
    </message>
    <message>
        <source>Open a profile to see its memory.</source>
        <translation>打开性能数据以查看内存。</translation>
    </message>
    <message>
        <source>%1 of %2 blocks, %3 flagged</source>
        <translation>%2 个内存块中 %1 个，%3 个被标记</translation>
    </message>
    <message>
        <source>Compared with the baseline: select a rank to see its operators whose allocation changed most.</source>
        <translation>与基线比较：选择一张卡，查看其内存分配变化最大的算子。</translation>
    </message>
    <message>
        <source>Rank %1 against the baseline: operators whose allocation changed most (Σ Size over the profiled window)</source>
        <translation>卡 %1 与基线比较：内存分配变化最大的算子（采集窗口内 Σ Size）</translation>
    </message>
    <message>
        <source>; peak reserved %1 → %2</source>
        <translation>；峰值预留 %1 → %2</translation>
    </message>
    <message>
        <source> — neither run has operator_memory rows for this rank.</source>
        <translation> — 两次运行都没有该卡的 operator_memory 行。</translation>
    </message>
    <message>
        <source>No operator memory blocks for this rank: operator_memory.csv (written with profile_memory=True) is missing or empty.</source>
        <translation>该卡没有算子内存块：operator_memory.csv（以 profile_memory=True 采集时写出）缺失或为空。</translation>
    </message>
    <message>
        <source>No block is allocated or released in the selected window.</source>
        <translation>所选时间窗口内没有分配或释放的内存块。</translation>
    </message>
    <message>
        <source>No block name matches the filter.</source>
        <translation>没有名称符合筛选条件的内存块。</translation>
    </message>
    <message>
        <source>rank %1: memory files not loaded: %2</source>
        <translation>卡 %1：内存文件未加载：%2</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MemoryHeatmap</name>
    <message>
        <source>Peak reserved ÷ device memory</source>
        <translation>峰值预留 ÷ 设备内存</translation>
    </message>
    <message>
        <source>over 100 %</source>
        <translation>超过 100 %</translation>
    </message>
    <message>
        <source>no memory records</source>
        <translation>无内存记录</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Peak reserved</source>
        <translation>峰值预留</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Peak time</source>
        <translation>峰值时刻</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>峰值分配</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Reserved ÷ capacity</source>
        <translation>预留 ÷ 容量</translation>
    </message>
    <message>
        <source>over 90 %</source>
        <translation>超过 90 %</translation>
    </message>
    <message>
        <source>Peak reserved: deviation from the median device (%1, %2 neutral)</source>
        <translation>峰值预留内存：相对中位设备的偏差（%1，%2 内不着色）</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>(from memory_usage_summary)</source>
        <translation>（来自 memory_usage_summary）</translation>
    </message>
    <message>
        <source>(entered: Device memory)</source>
        <translation>（手动输入：设备内存）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MemoryHeatmapDock</name>
    <message>
        <source>Memory heatmap</source>
        <translation>内存热力图</translation>
    </message>
    <message>
        <source>Device memory (GB):</source>
        <translation>设备内存 (GB)：</translation>
    </message>
    <message>
        <source>No profile records the device&apos;s memory size: the ratio is peak reserved ÷ this (GB = 2^30 bytes). 64 GB: Atlas 800T A2 / 910B class.</source>
        <translation>性能数据中没有记录设备内存大小：比例为峰值预留 ÷ 此值（GB = 2^30 字节）。64 GB：Atlas 800T A2 / 910B 系列。</translation>
    </message>
    <message>
        <source>1 rank</source>
        <translation>1 张卡</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <source>, none with memory records</source>
        <translation>，均无内存记录</translation>
    </message>
    <message>
        <source>, highest %1 % (rank %2)</source>
        <translation>，最高 %1 %（卡 %2）</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Colours:</source>
        <translation>着色：</translation>
    </message>
    <message>
        <source>share of device memory</source>
        <translation>占设备内存比例</translation>
    </message>
    <message>
        <source>Share of device memory: light blue 0 %, dark blue 90 %. Least to most used: the blues span the devices shown, so a spread of a few per cent shows. Red is over 90 % on both.</source>
        <translation>占设备内存比例：浅蓝为 0 %，深蓝为 90 %。从用量最少到最多：蓝色覆盖所显示设备的范围，几个百分点的差异也能看出。两种方式下红色均表示超过 90 %。</translation>
    </message>
    <message>
        <source>deviation from the median device</source>
        <translation>相对中位设备的偏差</translation>
    </message>
    <message>
        <source>; capacity from each rank&apos;s memory_usage_summary</source>
        <translation>；容量取自各卡的 memory_usage_summary</translation>
    </message>
    <message>
        <source>; capacity of %1 ranks from memory_usage_summary, of the others as entered</source>
        <translation>；%1 张卡的容量取自 memory_usage_summary，其余按输入值</translation>
    </message>
</context>
<context>
    <name>MemoryMetric</name>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>活跃</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::MemoryOperatorDiffModel</name>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>The operator_memory Name</source>
        <translation>operator_memory 的 Name</translation>
    </message>
    <message>
        <source>Base allocations</source>
        <translation>基线分配次数</translation>
    </message>
    <message>
        <source>operator_memory rows of the name in the baseline</source>
        <translation>基线中该名称的 operator_memory 行数</translation>
    </message>
    <message>
        <source>New allocations</source>
        <translation>新运行分配次数</translation>
    </message>
    <message>
        <source>operator_memory rows of the name in the opened run</source>
        <translation>当前打开的运行中该名称的 operator_memory 行数</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
</context>
<context>
    <name>MetricDefinitions</name>
    <message>
        <source>Computing</source>
        <translation>Computing</translation>
    </message>
    <message>
        <source>time the device runs compute kernels (AI Core, AI Vector, AI CPU, …) in the step</source>
        <translation>迭代中设备运行计算核函数（AI Core、AI Vector、AI CPU 等）的时间</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped)</source>
        <translation>Communication(Not Overlapped)</translation>
    </message>
    <message>
        <source>communication time not hidden by computing</source>
        <translation>未被计算掩盖的通信时间</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>Overlapped</translation>
    </message>
    <message>
        <source>computing time that overlaps communication</source>
        <translation>与通信重叠的计算时间</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>all communication time; `Communication = Communication(Not Overlapped) + Overlapped`</source>
        <translation>全部通信时间；`Communication = Communication(Not Overlapped) + Overlapped`</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>Free</translation>
    </message>
    <message>
        <source>device idle time (neither computing nor communicating)</source>
        <translation>设备空闲时间（既不计算也不通信）</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stage</translation>
    </message>
    <message>
        <source>step time without Bubble for pipeline stages</source>
        <translation>流水线阶段去除 Bubble 后的迭代时间</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>Bubble</translation>
    </message>
    <message>
        <source>pipeline bubble: time spent waiting in PP receive ops</source>
        <translation>流水线气泡：在 PP 接收算子中等待的时间</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped and Exclude Receive)</source>
        <translation>Communication(Not Overlapped and Exclude Receive)</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped) minus receive waiting</source>
        <translation>Communication(Not Overlapped) 减去接收等待</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>Preparing</translation>
    </message>
    <message>
        <source>time from the step start to the first device task (absent before 2024 builds → NULL)</source>
        <translation>从迭代开始到第一个设备任务的时间（2024 年之前的版本没有 → NULL）</translation>
    </message>
    <message>
        <source>Step wall time</source>
        <translation>迭代总时间</translation>
    </message>
    <message>
        <source>Computing + Communication(Not Overlapped) + Free + Preparing</source>
        <translation>Computing + Communication(Not Overlapped) + Free + Preparing</translation>
    </message>
    <message>
        <source>Slowest rank</source>
        <translation>最慢卡</translation>
    </message>
    <message>
        <source>the rank with the largest step wall time summed over all its steps (in one step: that step&apos;s wall time)</source>
        <translation>所有迭代的迭代总时间之和最大的卡（单个迭代时：该迭代的总时间）</translation>
    </message>
    <message>
        <source>Elapse Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>the op&apos;s duration on the rank: Transit + Wait + Idle</source>
        <translation>算子在该卡上的持续时间：传输 + 等待 + 空闲</translation>
    </message>
    <message>
        <source>Transit Time</source>
        <translation>传输时间</translation>
    </message>
    <message>
        <source>time the op moves data over its links</source>
        <translation>算子在链路上传输数据的时间</translation>
    </message>
    <message>
        <source>Wait Time</source>
        <translation>等待时间</translation>
    </message>
    <message>
        <source>time the rank waits inside the op for its peers (Synchronization included)</source>
        <translation>该卡在算子内等待其他卡的时间（含同步）</translation>
    </message>
    <message>
        <source>Synchronization Time</source>
        <translation>同步时间</translation>
    </message>
    <message>
        <source>the part of Wait before the first data moves: waiting for the peers to arrive</source>
        <translation>等待中第一次数据传输之前的部分：等待其他卡到达</translation>
    </message>
    <message>
        <source>Idle Time</source>
        <translation>空闲时间</translation>
    </message>
    <message>
        <source>Elapse − Transit − Wait: time inside the op spent neither moving data nor waiting</source>
        <translation>耗时 − 传输 − 等待：算子内既不传输数据也不等待的时间</translation>
    </message>
    <message>
        <source>Wait Ratio</source>
        <translation>等待比</translation>
    </message>
    <message>
        <source>Wait / (Wait + Transit)</source>
        <translation>等待 / (等待 + 传输)</translation>
    </message>
    <message>
        <source>Synchronization Ratio</source>
        <translation>同步比</translation>
    </message>
    <message>
        <source>Sync / (Sync + Transit)</source>
        <translation>同步 / (同步 + 传输)</translation>
    </message>
    <message>
        <source>Transit Size</source>
        <translation>传输大小</translation>
    </message>
    <message>
        <source>data the op moves over a link or transport (MB = 10^6 B)</source>
        <translation>算子在链路或传输类型上传输的数据量（MB = 10^6 B）</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Σ size / Σ time of the ops or links summed (GB/s); never a mean of per-op bandwidths</source>
        <translation>所汇总算子或链路的 Σ 大小 / Σ 时间 (GB/s)；绝不是各算子带宽的平均值</translation>
    </message>
    <message>
        <source>Kernel count</source>
        <translation>Kernel 次数</translation>
    </message>
    <message>
        <source>kernels of the rank with that key</source>
        <translation>该卡中具有该键的核函数数</translation>
    </message>
    <message>
        <source>Kernel total</source>
        <translation>Kernel 总计</translation>
    </message>
    <message>
        <source>Σ Duration(us) (op_summary: Task Duration(us))</source>
        <translation>Σ Duration(us)（op_summary：Task Duration(us)）</translation>
    </message>
    <message>
        <source>Kernel mean</source>
        <translation>Kernel 均值</translation>
    </message>
    <message>
        <source>total ÷ count, rounded to the nearest ns (half away from zero)</source>
        <translation>总计 ÷ 次数，四舍五入到 ns（远离零取整）</translation>
    </message>
    <message>
        <source>Kernel min / max</source>
        <translation>Kernel 最小 / 最大</translation>
    </message>
    <message>
        <source>the shortest / longest single Duration</source>
        <translation>单个 Duration 的最短 / 最长值</translation>
    </message>
    <message>
        <source>Kernel wait</source>
        <translation>Kernel 等待</translation>
    </message>
    <message>
        <source>Σ Wait Time(us) (op_summary: Task Wait Time(us)); a kernel without it counts 0</source>
        <translation>Σ Wait Time(us)（op_summary：Task Wait Time(us)）；没有该值的核函数计为 0</translation>
    </message>
    <message>
        <source>Last arriver</source>
        <translation>最后到达者</translation>
    </message>
    <message>
        <source>the member with the least wait (its own clock&apos;s evidence; ties: the later aligned start)</source>
        <translation>等待最少的成员（依据其自身时钟；相同时取对齐后开始较晚者）</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>到达差</translation>
    </message>
    <message>
        <source>latest − earliest aligned start of the instance&apos;s members</source>
        <translation>该实例各成员对齐后开始时间的最晚值 − 最早值</translation>
    </message>
    <message>
        <source>Wait cost</source>
        <translation>等待代价</translation>
    </message>
    <message>
        <source>Σ (member wait − the last arriver&apos;s wait): the wait the latest arrival cost its peers</source>
        <translation>Σ（成员等待 − 最后到达者的等待）：最晚到达给其他成员造成的等待</translation>
    </message>
    <message>
        <source>Instance delay</source>
        <translation>实例延迟</translation>
    </message>
    <message>
        <source>Σ excess wait of the members (member wait − the least wait of its role); what blame explains</source>
        <translation>各成员超额等待之和（成员等待 − 同角色的最少等待）；即归因分析所解释的部分</translation>
    </message>
    <message>
        <source>Blame cause</source>
        <translation>归因原因</translation>
    </message>
    <message>
        <source>compute (Computing above its role), host (device idle: dispatch-bound; Free above its role), link (transit ≥ 3× elsewhere) or unknown</source>
        <translation>compute（Computing 高于同角色）、host（设备空闲：下发受限；Free 高于同角色）、link（传输时间 ≥ 其他处的 3 倍）或 unknown</translation>
    </message>
    <message>
        <source>Induced wait</source>
        <translation>引发的等待</translation>
    </message>
    <message>
        <source>Σ over the step&apos;s delayed instances of delay × the root&apos;s weight</source>
        <translation>对该步所有延迟实例求和：延迟 × 该根因的权重</translation>
    </message>
    <message>
        <source>Blame share</source>
        <translation>归因占比</translation>
    </message>
    <message>
        <source>induced wait ÷ the step&apos;s induced wait (Σ over its roots, 0–1)</source>
        <translation>引发的等待 ÷ 该步引发的等待（各根因之和，0–1）</translation>
    </message>
    <message>
        <source>Blamed instances</source>
        <translation>归因实例数</translation>
    </message>
    <message>
        <source>the delayed instances this root is the largest root of</source>
        <translation>以该根因为最大根因的延迟实例数</translation>
    </message>
    <message>
        <source>Slice count</source>
        <translation>切片数</translation>
    </message>
    <message>
        <source>slices of the name that intersect the selected range on the chosen tracks</source>
        <translation>所选轨道上与所选时间范围相交的该名称切片数</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>墙钟时间</translation>
    </message>
    <message>
        <source>Σ duration of the slices, each clipped to the selected range</source>
        <translation>各切片时长之和（每个切片裁剪到所选范围）</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身时间</translation>
    </message>
    <message>
        <source>wall time minus the clipped wall time of the slices&apos; direct children</source>
        <translation>墙钟时间减去切片直接子切片的（裁剪后）墙钟时间</translation>
    </message>
    <message>
        <source>Average wall time</source>
        <translation>平均墙钟时间</translation>
    </message>
    <message>
        <source>total wall time ÷ count</source>
        <translation>总墙钟时间 ÷ 数量</translation>
    </message>
    <message>
        <source>Min / max wall time</source>
        <translation>最短 / 最长墙钟时间</translation>
    </message>
    <message>
        <source>the shortest / longest clipped duration of one slice</source>
        <translation>单个切片裁剪后的最短 / 最长时长</translation>
    </message>
    <message>
        <source>Module peak</source>
        <translation>模块峰值</translation>
    </message>
    <message>
        <source>the largest Total Reserved(MB) of the module over its samples</source>
        <translation>该模块各采样中 Total Reserved(MB) 的最大值</translation>
    </message>
    <message>
        <source>Module last</source>
        <translation>模块末值</translation>
    </message>
    <message>
        <source>Total Reserved(MB) of the module&apos;s last sample</source>
        <translation>该模块最后一个采样的 Total Reserved(MB)</translation>
    </message>
    <message>
        <source>Block size</source>
        <translation>内存块大小</translation>
    </message>
    <message>
        <source>Size(KB) of the memory block the operator allocated (operator_memory.csv)</source>
        <translation>算子所分配内存块的 Size(KB)（operator_memory.csv）</translation>
    </message>
    <message>
        <source>Memory component</source>
        <translation>内存组件</translation>
    </message>
    <message>
        <source>GE for torch_npu&apos;s `cann::` names (CANN / graph engine memory), else PTA</source>
        <translation>torch_npu 的 `cann::` 名称为 GE（CANN / 图引擎内存），其余为 PTA</translation>
    </message>
    <message>
        <source>Group size</source>
        <translation>通信组大小</translation>
    </message>
    <message>
        <source>the number of global ranks in the communication group</source>
        <translation>通信组中的全局卡数</translation>
    </message>
    <message>
        <source>Group ops</source>
        <translation>通信组算子数</translation>
    </message>
    <message>
        <source>communication ops of the group, counted over all ranks and steps</source>
        <translation>该通信组的通信算子数，按所有卡和迭代统计</translation>
    </message>
    <message>
        <source>Advice severity</source>
        <translation>建议严重程度</translation>
    </message>
    <message>
        <source>critical, warning or info, fixed per rule (the rules table below)</source>
        <translation>critical、warning 或 info，由规则固定（见下方规则表）</translation>
    </message>
    <message>
        <source>Advice value</source>
        <translation>建议数值</translation>
    </message>
    <message>
        <source>the measured figure the rule compares, in the unit shown</source>
        <translation>规则所比较的测量值，单位如所示</translation>
    </message>
    <message>
        <source>Advice threshold</source>
        <translation>建议阈值</translation>
    </message>
    <message>
        <source>the constant of AdviceThresholds the value was compared with</source>
        <translation>与该数值比较的 AdviceThresholds 常量</translation>
    </message>
    <message>
        <source>Issue severity</source>
        <translation>问题严重程度</translation>
    </message>
    <message>
        <source>error (the file or part of it could not be read), warning (read, with something skipped or guessed) or info (a note)</source>
        <translation>error（文件或其一部分无法读取）、warning（已读取，但有内容被跳过或推测）或 info（提示）</translation>
    </message>
</context>
<context>
    <name>MetricText</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ModuleMemoryModel</name>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>CANN module (Component of npu_module_mem.csv: SLOG, HCCL, RUNTIME, ...)</source>
        <translation>CANN 模块（npu_module_mem.csv 的 Component：SLOG、HCCL、RUNTIME 等）</translation>
    </message>
    <message>
        <source>Peak
[MB]</source>
        <translation>峰值
[MB]</translation>
    </message>
    <message>
        <source>The largest Total Reserved(MB) of the module</source>
        <translation>该模块最大的 Total Reserved(MB)</translation>
    </message>
    <message>
        <source>Last
[MB]</source>
        <translation>末值
[MB]</translation>
    </message>
    <message>
        <source>Total Reserved(MB) of the module&apos;s last sample</source>
        <translation>该模块最后一个采样的 Total Reserved(MB)</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>采样数</translation>
    </message>
    <message>
        <source>Rows of the module</source>
        <translation>该模块的行数</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OpStatisticTableModel</name>
    <message>
        <source>OP Type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <source>op_statistic.csv: OP Type</source>
        <translation>op_statistic.csv：OP Type</translation>
    </message>
    <message>
        <source>Core Type</source>
        <translation>核类型</translation>
    </message>
    <message>
        <source>op_statistic.csv: Core Type (the unit the op ran on)</source>
        <translation>op_statistic.csv：Core Type（算子运行的计算单元）</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡数</translation>
    </message>
    <message>
        <source>Ranks shown whose op_statistic.csv lists the type</source>
        <translation>所示 rank 中 op_statistic.csv 列出该类型的个数</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Count, summed over the ranks shown</source>
        <translation>Count，所示 rank 之和</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Total Time, summed over the ranks shown</source>
        <translation>Total Time，所示 rank 之和</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Total ÷ Count over the ranks shown (the file&apos;s Avg Time on one rank)</source>
        <translation>所示 rank 的总时间 ÷ 次数（单个 rank 时即文件的 Avg Time）</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Min Time: the least over the ranks shown</source>
        <translation>Min Time：所示 rank 中的最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Max Time: the largest over the ranks shown</source>
        <translation>Max Time：所示 rank 中的最大值</translation>
    </message>
    <message>
        <source>Share [%]</source>
        <translation>占比 [%]</translation>
    </message>
    <message>
        <source>The type&apos;s total time over the total of every type, on the ranks shown (the file&apos;s Ratio(%) on one rank)</source>
        <translation>该类型总时间占所示 rank 上全部类型总时间的比例（单个 rank 时即文件的 Ratio(%)）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OpStripView</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %2, starts +%3&lt;br&gt;Elapsed %4 · Transit %5 · Wait %6&lt;br&gt;&lt;i&gt;click: show in the timeline&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;卡 %2，开始于 +%3&lt;br&gt;耗时 %4 · 传输 %5 · 等待 %6&lt;br&gt;&lt;i&gt;单击：在时间线中显示&lt;/i&gt;</translation>
    </message>
    <message>
        <source>No communication ops with start times</source>
        <translation>没有带开始时间的通信算子</translation>
    </message>
    <message>
        <source>%1 ops on %2 ranks · same colour = same op</source>
        <translation>%2 张卡上的 %1 个算子 · 同色 = 同一算子</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>%1 ops on %2 ranks · colour = op type:</source>
        <translation>%2 张卡上的 %1 个算子 · 颜色 = 算子类型：</translation>
    </message>
    <message>
        <source>colour = op type:</source>
        <translation>颜色 = 算子类型：</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OperatorDiffModel</name>
    <message>
        <source>Δ ms</source>
        <translation>Δ ms</translation>
    </message>
    <message>
        <source>New − base, ms per rank and step</source>
        <translation>新 − 基线，每卡每迭代 ms</translation>
    </message>
    <message>
        <source>Δ %</source>
        <translation>Δ %</translation>
    </message>
    <message>
        <source>(new − base) ÷ base × 100; — when base is 0</source>
        <translation>(新 − 基线) ÷ 基线 × 100；基线为 0 时为 —</translation>
    </message>
    <message>
        <source>The operator key compared</source>
        <translation>比较的算子键</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>The operators view&apos;s category (GPU kernels mapped onto it, docs/metrics.md)</source>
        <translation>算子视图的类别（GPU 核函数映射到该类别，见 docs/metrics.md）</translation>
    </message>
    <message>
        <source>Base count</source>
        <translation>基线次数</translation>
    </message>
    <message>
        <source>Calls per rank and step in the baseline</source>
        <translation>基线中每卡每迭代的调用次数</translation>
    </message>
    <message>
        <source>New count</source>
        <translation>新次数</translation>
    </message>
    <message>
        <source>Calls per rank and step in the opened run</source>
        <translation>当前打开的运行中每卡每迭代的调用次数</translation>
    </message>
    <message>
        <source>Base ms</source>
        <translation>基线 ms</translation>
    </message>
    <message>
        <source>Total duration per rank and step in the baseline</source>
        <translation>基线中每卡每迭代的总时长</translation>
    </message>
    <message>
        <source>New ms</source>
        <translation>新 ms</translation>
    </message>
    <message>
        <source>Total duration per rank and step in the opened run</source>
        <translation>当前打开的运行中每卡每迭代的总时长</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OperatorDock</name>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Group by:</source>
        <translation>分组方式：</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>name + shapes</source>
        <translation>名称 + shape</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>卡：</translation>
    </message>
    <message>
        <source>The rank shown, or every loaded rank summed; in compare mode the baseline rank R</source>
        <translation>显示的卡，或所有已加载卡之和；比较模式下为基准卡 R</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>对比卡：</translation>
    </message>
    <message>
        <source>The comparison rank R2: each key shows both totals and R2 − R, largest first</source>
        <translation>比较卡 R2：每个键显示两边的总计和 R2 − R，最大的在前</translation>
    </message>
    <message>
        <source>Top:</source>
        <translation>前：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>The table and the type pie show the N keys with the largest total (compare mode: the largest |difference|); 0 shows every key</source>
        <translation>表格和类型饼图显示总计最大的 N 个键（比较模式：|差值| 最大的）；0 表示显示全部</translation>
    </message>
    <message>
        <source>Filter keys</source>
        <translation>筛选</translation>
    </message>
    <message>
        <source>Imports every rank&apos;s kernel_details.csv in the background</source>
        <translation>在后台导入每张卡的 kernel_details.csv</translation>
    </message>
    <message>
        <source>Listing ranks…</source>
        <translation>正在列出卡…</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>All ranks</source>
        <translation>所有卡</translation>
    </message>
    <message>
        <source>Open a profile to see its operators.</source>
        <translation>打开性能数据以查看算子。</translation>
    </message>
    <message>
        <source>rank %1: kernels not loaded: %2</source>
        <translation>卡 %1：核函数未加载：%2</translation>
    </message>
    <message>
        <source>No ranks loaded.</source>
        <translation>未加载任何卡。</translation>
    </message>
    <message>
        <source>The kernels of the ranks are loaded when this view is shown.</source>
        <translation>显示本视图时加载各卡的核函数。</translation>
    </message>
    <message>
        <source>The kernels of rank %1 are loaded when this view is shown.</source>
        <translation>显示本视图时加载卡 %1 的核函数。</translation>
    </message>
    <message>
        <source>Load all %1 ranks</source>
        <translation>加载全部 %1 张卡</translation>
    </message>
    <message>
        <source>Loading kernels of %1 of %2 ranks…</source>
        <translation>正在加载 %2 张卡中 %1 张的核函数…</translation>
    </message>
    <message>
        <source>⚠ %1 ranks: the sum covers the first %2 (each rank&apos;s kernel table is held in memory); “Load all” imports the rest.</source>
        <translation>⚠ %1 张卡：求和只覆盖前 %2 张（每张卡的核函数表都保存在内存中）；“全部加载”可导入其余卡。</translation>
    </message>
    <message>
        <source>Loading kernels of rank %1…</source>
        <translation>正在加载卡 %1 的核函数…</translation>
    </message>
    <message>
        <source> (top %1 shown)</source>
        <translation>（显示前 %1 个）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 (baseline) vs rank %2&lt;/b&gt;: %3 keys%4; rank %2 spends %5 more in kernels than rank %1</source>
        <translation>&lt;b&gt;卡 %1（基准）对比卡 %2&lt;/b&gt;：%3 个键%4；卡 %2 在核函数上比卡 %1 多用 %5</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1 (baseline) vs rank %2&lt;/b&gt;: %3 keys%4; rank %2 spends %5 less in kernels than rank %1</source>
        <translation>&lt;b&gt;卡 %1（基准）对比卡 %2&lt;/b&gt;：%3 个键%4；卡 %2 在核函数上比卡 %1 少用 %5</translation>
    </message>
    <message>
        <source>No rank loaded so far has kernel rows.</source>
        <translation>已加载的卡均无核函数数据。</translation>
    </message>
    <message>
        <source>Rank %1 has no kernel rows (kernel_details.csv, op_summary or a db export&apos;s kernel tables).</source>
        <translation>卡 %1 没有核函数数据（kernel_details.csv、op_summary 或 db 导出的核函数表）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;All ranks&lt;/b&gt; (%1 with kernels): %2 keys%3, %4 kernels over every loaded step</source>
        <translation>&lt;b&gt;所有卡&lt;/b&gt;（%1 张有核函数）：%2 个键%3，所有已加载迭代共 %4 个核函数</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rank %1&lt;/b&gt;: %2 keys%3, %4 kernels over every loaded step</source>
        <translation>&lt;b&gt;卡 %1&lt;/b&gt;：%2 个键%3，所有已加载迭代共 %4 个核函数</translation>
    </message>
    <message>
        <source>all ranks</source>
        <translation>所有卡</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source> — outer: rank %1, inner: rank %2</source>
        <translation> — 外圈：卡 %1，内圈：卡 %2</translation>
    </message>
    <message>
        <source>Kernel time by op type</source>
        <translation>按算子类型的核函数耗时</translation>
    </message>
    <message>
        <source>Kernel time by accelerator core</source>
        <translation>按加速核的核函数耗时</translation>
    </message>
    <message>
        <source>No kernel rows</source>
        <translation>无核函数数据</translation>
    </message>
    <message>
        <source>Click an operator: the timeline highlights its occurrences (double-click: also show the timeline)</source>
        <translation>单击算子：时间线高亮其所有出现位置（双击：同时显示时间线）</translation>
    </message>
    <message>
        <source> (the %1 largest changes against the baseline shown)</source>
        <translation>（显示相对基线变化最大的 %1 项）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OperatorMemoryModel</name>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Inefficient blocks (docs/metrics.md): late return = back to the pool ≥ 1 ms and ≥ 25 % of its lifetime after the tensor was freed; held to end = ≥ 1 MB allocated in the profile and never freed in it</source>
        <translation>低效内存块（见 docs/metrics.md）：延迟归还 = 张量释放后 ≥ 1 ms 且 ≥ 其生命周期 25 % 才归还内存池；持有到结束 = 采集期间分配 ≥ 1 MB 且一直未释放</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Name: the operator that allocated the block (&quot;cann::&quot; rows: CANN / GE memory)</source>
        <translation>名称：分配该内存块的算子（“cann::”行：CANN / GE 内存）</translation>
    </message>
    <message>
        <source>Size
[KB]</source>
        <translation>大小
[KB]</translation>
    </message>
    <message>
        <source>Size(KB) of the block</source>
        <translation>内存块的 Size(KB)</translation>
    </message>
    <message>
        <source>Allocation</source>
        <translation>分配</translation>
    </message>
    <message>
        <source>Allocation Time, ms after the rank&apos;s first memory sample</source>
        <translation>Allocation Time，自该卡第一个内存采样起的 ms</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>Release Time: the tensor was freed (ms after the first memory sample); empty when not inside the profile</source>
        <translation>Release Time：张量被释放的时刻（自第一个内存采样起的 ms）；不在采集范围内时为空</translation>
    </message>
    <message>
        <source>Active release</source>
        <translation>实际释放</translation>
    </message>
    <message>
        <source>Active Release Time: the block went back to the allocator&apos;s pool (ms after the first memory sample)</source>
        <translation>Active Release Time：内存块归还分配器内存池的时刻（自第一个内存采样起的 ms）</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Duration = Release − Allocation (ms)</source>
        <translation>Duration = 释放 − 分配 (ms)</translation>
    </message>
    <message>
        <source>Active duration</source>
        <translation>实际持续时间</translation>
    </message>
    <message>
        <source>Active Duration = Active release − Allocation (ms)</source>
        <translation>Active Duration = 实际归还 − 分配 (ms)</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>GE for &quot;cann::&quot; rows (CANN / GE memory), else PTA (torch_npu&apos;s caching allocator)</source>
        <translation>“cann::”行为 GE（CANN / GE 内存），否则为 PTA（torch_npu 的缓存分配器）</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Device Type</source>
        <translation>设备类型</translation>
    </message>
    <message>
        <source>late return</source>
        <translation>延迟归还</translation>
    </message>
    <message>
        <source>held to end</source>
        <translation>持有至结束</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OperatorTableModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>The kernel&apos;s Type, its Name, or its Name and Input Shapes (&quot;Name [Input Shapes]&quot;), as chosen in Group by</source>
        <translation>核函数的类型、名称，或名称加输入形状（“Name [Input Shapes]”），由“分组”中的选择决定</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Kernels of the rank with this key (in compare mode: of the baseline rank)</source>
        <translation>该卡中具有此键的核函数数（比较模式：基准卡的）</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Σ Duration of the key&apos;s kernels over every loaded step (µs)</source>
        <translation>该键的核函数在所有已加载迭代上的 Σ Duration (µs)</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>Total ÷ count, rounded to the nearest ns (µs)</source>
        <translation>总计 ÷ 次数，四舍五入到 ns (µs)</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>The shortest single kernel Duration (µs)</source>
        <translation>单个核函数的最短 Duration (µs)</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>The longest single kernel Duration (µs)</source>
        <translation>单个核函数的最长 Duration (µs)</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Σ Wait Time of the key&apos;s kernels (µs); a kernel without Wait Time counts 0</source>
        <translation>该键核函数的 Σ Wait Time (µs)；没有 Wait Time 的核函数计为 0</translation>
    </message>
    <message>
        <source>Block dim</source>
        <translation>逻辑核数</translation>
    </message>
    <message>
        <source>Block Dim of the key&apos;s kernels: one value, or the smallest–largest when they differ; — when the files have none</source>
        <translation>该键核函数的 Block Dim：一个值，或不同时为最小–最大；文件中没有时为 —</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>Shape</translation>
    </message>
    <message>
        <source>The Input Shapes of the key (grouped by name + shapes)</source>
        <translation>该键的 Input Shapes（按名称 + 形状分组时）</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速核</translation>
    </message>
    <message>
        <source>The Accelerator Core (op_summary: Task Type) values of the key&apos;s kernels: AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, HCCL / COMMUNICATION, …</source>
        <translation>该键核函数的 Accelerator Core（op_summary：Task Type）取值：AI_CORE、AI_VECTOR_CORE、MIX_AIC、MIX_AIV、AI_CPU、HCCL / COMMUNICATION 等</translation>
    </message>
    <message>
        <source>Baseline total</source>
        <translation>基线总计</translation>
    </message>
    <message>
        <source>Σ Duration of the key&apos;s kernels on the baseline rank R (µs); 0 when R has none</source>
        <translation>基准卡 R 上该键核函数的 Σ Duration (µs)；R 上没有时为 0</translation>
    </message>
    <message>
        <source>Comparison total</source>
        <translation>对比总计</translation>
    </message>
    <message>
        <source>Σ Duration of the key&apos;s kernels on the comparison rank R2 (µs); 0 when R2 has none</source>
        <translation>比较卡 R2 上该键核函数的 Σ Duration (µs)；R2 上没有时为 0</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Comparison total − baseline total (µs): the extra time R2 spends on this key; positive first</source>
        <translation>比较总计 − 基准总计 (µs)：R2 在该键上多花的时间；正值在前</translation>
    </message>
    <message>
        <source>ms/step</source>
        <translation>ms/步</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Floating-point operations of the key&apos;s ops from MindSpore&apos;s flops_N.txt (joined by kernel Name = the file&apos;s op full name): Σ over the key&apos;s distinct names in the file; — when none is</source>
        <translation>该键算子的浮点运算次数，取自 MindSpore 的 flops_N.txt（按 kernel Name = 文件中的算子全名关联）：对该键在文件中出现的不同名称求和；均不在文件中时为 —</translation>
    </message>
    <message>
        <source>FLOPS</source>
        <translation>FLOPS</translation>
    </message>
    <message>
        <source>FLOPs ÷ the time they took by the file&apos;s own FLOPS (Σ FLOPs ÷ Σ of each name&apos;s FLOPs ÷ its FLOPS), in FLOP/s</source>
        <translation>FLOPs ÷ 按文件自身 FLOPS 推算的耗时（Σ FLOPs ÷ Σ 各名称的 FLOPs ÷ 其 FLOPS），单位 FLOP/s</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::OverviewDock</name>
    <message>
        <source>1 rank</source>
        <translation>1 张卡</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>mean over steps but the first</source>
        <translation>除首个迭代外的均值</translation>
    </message>
    <message>
        <source>mean over steps</source>
        <translation>各迭代均值</translation>
    </message>
    <message>
        <source>Per-rank split · %1 · %2 (step trace and old iteration trace ranks mixed: each bar in its own generation&apos;s parts)</source>
        <translation>各卡拆分 · %1 · %2（step trace 与旧版 iteration trace 的卡混合：每个柱按其自身格式代的组成部分显示）</translation>
    </message>
    <message>
        <source>Per-rank iteration split (interval · FP+BP · tail) · %1 · %2</source>
        <translation>各卡迭代拆分（间隙 · FP+BP · 拖尾）· %1 · %2</translation>
    </message>
    <message>
        <source>Per-rank step split · %1 · %2</source>
        <translation>各卡迭代拆分 · %1 · %2</translation>
    </message>
    <message>
        <source>Per-rank step split</source>
        <translation>各卡迭代拆分</translation>
    </message>
    <message>
        <source>Rank %1 · %2</source>
        <translation>卡 %1 · %2</translation>
    </message>
    <message>
        <source>Step split</source>
        <translation>迭代拆分</translation>
    </message>
    <message>
        <source>%1 of %2 ranks</source>
        <translation>%1 / %2 张卡</translation>
    </message>
    <message>
        <source>Cluster mean of %1 · %2</source>
        <translation>集群 %1 均值 · %2</translation>
    </message>
    <message>
        <source>%1 with the other file generation&apos;s split (old iteration trace vs step_trace_time) are not in this mean; their bars are on the right.</source>
        <translation>%1 采用另一代文件格式的拆分（旧版 iteration trace 与 step_trace_time），未计入此均值；其柱形在右侧。</translation>
    </message>
    <message>
        <source>New run, step %1%2 against the baseline · </source>
        <translation>新运行，迭代相对基线 %1%2 · </translation>
    </message>
    <message>
        <source>New run · </source>
        <translation>新运行 · </translation>
    </message>
    <message>
        <source>Baseline rank %1 · %2</source>
        <translation>基线卡 %1 · %2</translation>
    </message>
    <message>
        <source>Baseline cluster mean of %1 · %2</source>
        <translation>基线集群均值（%1）· %2</translation>
    </message>
    <message>
        <source>Baseline: rank %1 not in the baseline</source>
        <translation>基线：基线中没有卡 %1</translation>
    </message>
    <message>
        <source>%1 per step = step wall time: ProfilerStep#N&apos;s start on the host → the end of its last device task. Stage %2 = first → last device task − Bubble. The %3 between them = Preparing %4 + Bubble %5</source>
        <translation>每迭代 %1 = 迭代墙钟时间：从 Host 上 ProfilerStep#N 开始 → 该迭代最后一个 Device 任务结束。Stage %2 = 第一个 → 最后一个 Device 任务 − Bubble。两者之差 %3 = Preparing %4 + Bubble %5</translation>
    </message>
    <message>
        <source> + %1 not in those columns</source>
        <translation> + %1 不在这些列中</translation>
    </message>
    <message>
        <source>Step wall time = Computing + Communication(Not Overlapped) + Free + Preparing (the donut&apos;s parts). Stage, as step_trace_time.csv writes it = Computing + Communication(Not Overlapped) + Free − Bubble. Preparing = ProfilerStep#N&apos;s start → the step&apos;s first device task.</source>
        <translation>迭代墙钟时间 = Computing + Communication(Not Overlapped) + Free + Preparing（环形图的各部分）。Stage（step_trace_time.csv 所写）= Computing + Communication(Not Overlapped) + Free − Bubble。Preparing = ProfilerStep#N 开始 → 该迭代第一个 Device 任务。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Main finding:&lt;/b&gt; %1 · %2 · &lt;a href=&quot;advice&quot;&gt;show in Advice&lt;/a&gt;</source>
        <translation>&lt;b&gt;主要结论：&lt;/b&gt;%1 · %2 · &lt;a href=&quot;advice&quot;&gt;在专家建议中查看&lt;/a&gt;</translation>
    </message>
    <message>
        <source>The advice finding that explains the most of the step time (ranked by the time it explains); Advice lists every finding with its rule, figures and evidence</source>
        <translation>解释迭代时间最多的专家建议结论（按其解释的时间排序）；专家建议视图列出每条结论的规则、数值和证据</translation>
    </message>
    <message>
        <source>group %1 (%2 of %3 ranks)</source>
        <translation>通信域 %1（%3 张卡中的 %2 张）</translation>
    </message>
    <message>
        <source>Group %1 mean of %2 · %3</source>
        <translation>通信域 %1 的 %2 均值 · %3</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PacketChart</name>
    <message>
        <source>No packet size distribution</source>
        <translation>无数据包大小分布</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; packets of %2 – %3 (%4 – %5 MB): &lt;b&gt;%6&lt;/b&gt;&lt;br&gt;total %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 个 %2 – %3（%4 – %5 MB）的数据包：&lt;b&gt;%6&lt;/b&gt;&lt;br&gt;总计 %7</translation>
    </message>
    <message>
        <source>%1 packets · large-packet ratio %2 (as the profiler writes it)</source>
        <translation>%1 个数据包 · 大包占比 %2（性能数据中的原值）</translation>
    </message>
</context>
<context>
    <name>ParallelLayout</name>
    <message>
        <source>rank %1 falls outside the sizes</source>
        <translation>卡 %1 超出各维度大小</translation>
    </message>
    <message>
        <source>ranks %1 and %2 get the same coordinates</source>
        <translation>卡 %1 与卡 %2 的坐标相同</translation>
    </message>
    <message>
        <source>every size must be at least 1</source>
        <translation>每个维度大小都必须至少为 1</translation>
    </message>
    <message>
        <source>EP %1 must divide DP × CP = %2</source>
        <translation>EP %1 必须整除 DP × CP = %2</translation>
    </message>
    <message>
        <source>%1 = %2 ranks, but the profile has %3 (%4)</source>
        <translation>%1 = %2 张卡，但性能数据有 %3 张（%4）</translation>
    </message>
    <message>
        <source>no tp, dp, cp or pp group</source>
        <translation>没有 tp、dp、cp 或 pp 通信域</translation>
    </message>
    <message>
        <source>the %1 groups differ in size</source>
        <translation>各 %1 通信域大小不一</translation>
    </message>
    <message>
        <source>the groups give %1 = %2 ranks, world size %3</source>
        <translation>通信域给出 %1 = %2 张卡，而总卡数为 %3</translation>
    </message>
    <message>
        <source>rank %1 is in no %2 group and the groups have no common stride</source>
        <translation>卡 %1 不属于任何 %2 通信域，且各通信域没有共同步长</translation>
    </message>
    <message>
        <source>%1 groups of profiler_metadata.json</source>
        <translation>profiler_metadata.json 中的 %1 通信域</translation>
    </message>
    <message>
        <source>stageDevices is empty</source>
        <translation>stageDevices 为空</translation>
    </message>
    <message>
        <source>the stages of stageDevices differ in size</source>
        <translation>stageDevices 中各阶段大小不一</translation>
    </message>
    <message>
        <source>rank %1 is in two stages</source>
        <translation>卡 %1 同时属于两个阶段</translation>
    </message>
    <message>
        <source>stageDevices does not list ranks 0 .. %1</source>
        <translation>stageDevices 未列出卡 0 .. %1</translation>
    </message>
    <message>
        <source>%1 stage(s) of parallel_strategy stageDevices</source>
        <translation>parallel_strategy stageDevices 中的 %1 个阶段</translation>
    </message>
    <message>
        <source>nothing in the data names the parallel layout</source>
        <translation>数据中没有任何信息说明并行布局</translation>
    </message>
    <message>
        <source>world size</source>
        <translation>总卡数</translation>
    </message>
    <message>
        <source>sizes entered by the user, Megatron order tp-cp-dp-pp</source>
        <translation>用户输入的大小，Megatron 顺序 tp-cp-dp-pp</translation>
    </message>
    <message>
        <source>Entered sizes not used: %1.</source>
        <translation>未使用输入的大小：%1。</translation>
    </message>
    <message>
        <source>Parallel groups not used: %1.</source>
        <translation>未使用并行通信域：%1。</translation>
    </message>
    <message>
        <source>distributed_args sizes, Megatron order tp-cp-dp-pp</source>
        <translation>distributed_args 中的大小，Megatron 顺序 tp-cp-dp-pp</translation>
    </message>
    <message>
        <source>distributed_args not used: %1.</source>
        <translation>未使用 distributed_args：%1。</translation>
    </message>
    <message>
        <source>it lists %1 ranks, world size %2</source>
        <translation>其中列出 %1 张卡，而总卡数为 %2</translation>
    </message>
    <message>
        <source>MindSpore stageDevices not used: %1.</source>
        <translation>未使用 MindSpore stageDevices：%1。</translation>
    </message>
    <message>
        <source>%1 pipeline stage(s) of %2 contiguous ranks, from the names of MindInsight&apos;s ascend_cluster_analyse_pipeline-parallel files</source>
        <translation>%1 个流水线阶段，每阶段 %2 个连续 rank，取自 MindInsight 的 ascend_cluster_analyse_pipeline-parallel 文件名</translation>
    </message>
    <message>
        <source>%1 stages of %2 ranks, world size %3</source>
        <translation>%1 个阶段共 %2 个 rank，而 world size 为 %3</translation>
    </message>
    <message>
        <source>ascend_cluster_analyse_pipeline-parallel files not used: %1.</source>
        <translation>未使用 ascend_cluster_analyse_pipeline-parallel 文件：%1。</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ParallelStrategyDock</name>
    <message>
        <source>Parallel strategy</source>
        <translation>并行策略</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>Per-rank figure of the selected step (or the mean over steps); docs/metrics.md</source>
        <translation>所选迭代（或各迭代均值）的每卡数值；见 docs/metrics.md</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source>Cells outside the range are drawn faded (ms for times, % for ratios)</source>
        <translation>超出范围的单元格淡化显示（时间为 ms，比例为 %）</translation>
    </message>
    <message>
        <source>no minimum</source>
        <translation>无下限</translation>
    </message>
    <message>
        <source>no maximum</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Sizes:</source>
        <translation>并行规模：</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Lay the ranks out with these sizes in Megatron order (rank = tp + TP·(cp + CP·(dp + DP·pp))), remembered for these inputs</source>
        <translation>按 Megatron 顺序以这些大小排布各卡（rank = tp + TP·(cp + CP·(dp + DP·pp))），针对这些输入记住设置</translation>
    </message>
    <message>
        <source>From data</source>
        <translation>根据数据</translation>
    </message>
    <message>
        <source>Forget the entered sizes and use the layout the data gives</source>
        <translation>忽略输入的大小，使用数据给出的布局</translation>
    </message>
    <message>
        <source>%1 ranks: PP %2 × DP %3 × CP %4 × TP %5</source>
        <translation>%1 张卡：PP %2 × DP %3 × CP %4 × TP %5</translation>
    </message>
    <message>
        <source>, EP %1</source>
        <translation>，EP %1</translation>
    </message>
    <message>
        <source> (%1 loaded)</source>
        <translation>（已加载 %1）</translation>
    </message>
    <message>
        <source> — from %1: %2</source>
        <translation> — 来自 %1：%2</translation>
    </message>
    <message>
        <source> ⚠ %1</source>
        <translation> ⚠ %1</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
</context>
<context>
    <name>ParseIssue</name>
    <message>
        <source>no start_info next to info.json; timeline times cannot be converted to epoch</source>
        <translation>info.json 旁没有 start_info；时间线时间无法换算为 epoch</translation>
    </message>
    <message>
        <source>no start_info (collectionTimeBegin, clockMonotonicRaw) in the device folder; the monotonic-raw timestamps cannot be placed in time, file not imported</source>
        <translation>设备文件夹中没有 start_info（collectionTimeBegin、clockMonotonicRaw）；monotonic-raw 时间戳无法定位到时间，文件未导入</translation>
    </message>
    <message>
        <source>cannot open the file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>not valid JSON</source>
        <translation>不是有效的 JSON</translation>
    </message>
    <message>
        <source>top level is not an array of trace events</source>
        <translation>顶层不是 trace 事件数组</translation>
    </message>
    <message>
        <source>X event without numeric ts/dur; skipped</source>
        <translation>X 事件没有数值 ts/dur；已跳过</translation>
    </message>
    <message>
        <source>not a JSON array of trace events</source>
        <translation>不是 trace 事件的 JSON 数组</translation>
    </message>
    <message>
        <source>no &quot;Iteration &lt;N&gt;&quot; events with Iteration Time(ns); no steps from this file</source>
        <translation>没有带 Iteration Time(ns) 的 &quot;Iteration &lt;N&gt;&quot; 事件；此文件不提供迭代</translation>
    </message>
    <message>
        <source>%1 has no device column, so its rows cannot be told apart by device in this %2-device file; not imported</source>
        <translation>%1 没有 device 列，在这个 %2 设备的文件中其行无法按设备区分；未导入</translation>
    </message>
    <message>
        <source>no StepTraceTime table; no step breakdown from this file</source>
        <translation>没有 StepTraceTime 表；此文件不提供迭代耗时分解</translation>
    </message>
    <message>
        <source>CommAnalyzerTime row without hccl_op_name; skipped</source>
        <translation>CommAnalyzerTime 行缺少 hccl_op_name；已跳过</translation>
    </message>
    <message>
        <source>%1 CommAnalyzerBandwidth rows name an op missing from CommAnalyzerTime; skipped</source>
        <translation>%1 行 CommAnalyzerBandwidth 引用了 CommAnalyzerTime 中不存在的算子；已跳过</translation>
    </message>
    <message>
        <source>CommAnalyzerMatrix row of %1 without numeric src/dst rank; skipped</source>
        <translation>%1 的 CommAnalyzerMatrix 行缺少数值型 src/dst 卡号；已跳过</translation>
    </message>
    <message>
        <source>not a readable SQLite export: %1</source>
        <translation>不是可读取的 SQLite 导出文件：%1</translation>
    </message>
    <message>
        <source>the file holds devices %1 and none is this rank&apos;s id %2; nothing imported for it</source>
        <translation>文件包含设备 %1，其中没有本卡的编号 %2；未为其导入任何数据</translation>
    </message>
    <message>
        <source>the file holds devices %1: rows of device %2 imported for rank %3 (rank ids come from device ids; the file has no rank information)</source>
        <translation>文件包含设备 %1：设备 %2 的行已导入为卡 %3（卡号取自设备号；文件中没有卡的信息）</translation>
    </message>
    <message>
        <source>no CommAnalyzerTime table; no communication ops from this file</source>
        <translation>没有 CommAnalyzerTime 表；此文件不提供通信算子</translation>
    </message>
    <message>
        <source>reading the export failed: %1</source>
        <translation>读取导出文件失败：%1</translation>
    </message>
    <message>
        <source>%1 TASK rows without task info span a communication op (same connectionId as a COMMUNICATION_OP row); not drawn on their stream: the op is on HCCL &quot;Group &lt;g&gt; Communication&quot;, as in the text trace</source>
        <translation>%1 个没有 task info 的 TASK 行覆盖了一个通信算子（与某 COMMUNICATION_OP 行的 connectionId 相同）；未画在其 stream 上：该算子位于 HCCL &quot;Group &lt;g&gt; Communication&quot;，与文本 trace 一致</translation>
    </message>
    <message>
        <source>reading the export&apos;s timeline failed: %1</source>
        <translation>读取导出文件的时间线失败：%1</translation>
    </message>
    <message>
        <source>META_DATA %1 is not a JSON object; kept as text</source>
        <translation>META_DATA %1 不是 JSON 对象；按文本保留</translation>
    </message>
    <message>
        <source>TASK / COMPUTE_TASK_INFO lack globalTaskId or startNs; no kernels imported</source>
        <translation>TASK / COMPUTE_TASK_INFO 缺少 globalTaskId 或 startNs；未导入核函数</translation>
    </message>
    <message>
        <source>TASK row without startNs; skipped</source>
        <translation>TASK 行缺少 startNs；已跳过</translation>
    </message>
    <message>
        <source>no TASK / COMPUTE_TASK_INFO / COMMUNICATION_OP rows; no kernels from this file</source>
        <translation>没有 TASK / COMPUTE_TASK_INFO / COMMUNICATION_OP 行；此文件不提供核函数</translation>
    </message>
    <message>
        <source>looked for ASCEND_PROFILER_OUTPUT, *_ascend_pt / *_ascend_ms folders, profiler_info*.json, MindSpore parallel_strategy_*.json, profiler_metadata.json, step_trace_time.csv, kernel_details.csv, CANN op_summary_*.csv, communication*.json, trace_view.json, ascend_pytorch_profiler*.db / ascend_mindspore_profiler*.db / msprof_*.db / report_*.db and analysis.db, msprof-analyze cluster_analysis_output (cluster_step_trace_time.csv, cluster_communication*.json, communication_group.json, cluster_analysis.db), old MindSpore profiler/ files (step_trace_raw_*_detail_time.csv, hccl_raw_*.csv), a MindInsight cluster_profiler job, CANN PROF_* folders with device_* subfolders, and by content under any other name: SQLite files (classified by their tables), Chrome-trace *.json and PyTorch profiler (Kineto) traces *.json / *.json.gz</source>
        <translation>查找了 ASCEND_PROFILER_OUTPUT、*_ascend_pt / *_ascend_ms 文件夹、profiler_info*.json、MindSpore parallel_strategy_*.json、profiler_metadata.json、step_trace_time.csv、kernel_details.csv、CANN op_summary_*.csv、communication*.json、trace_view.json、ascend_pytorch_profiler*.db / ascend_mindspore_profiler*.db / msprof_*.db / report_*.db 和 analysis.db、msprof-analyze cluster_analysis_output（cluster_step_trace_time.csv、cluster_communication*.json、communication_group.json、cluster_analysis.db）、旧版 MindSpore profiler/ 文件（step_trace_raw_*_detail_time.csv、hccl_raw_*.csv）、MindInsight cluster_profiler 作业、带 device_* 子文件夹的 CANN PROF_* 文件夹，以及按内容识别的其他任意名称文件：SQLite 文件（按其表分类）、Chrome trace *.json 和 PyTorch profiler（Kineto）trace *.json / *.json.gz</translation>
    </message>
    <message>
        <source>not a profiler file npuscope knows; %1</source>
        <translation>不是 npuscope 认识的性能数据文件；%1</translation>
    </message>
    <message>
        <source>no profiler output found; %1</source>
        <translation>未找到性能数据；%1</translation>
    </message>
    <message>
        <source>file name not known to npuscope; by its content (msprof-analyze cluster tables) imported as cluster_analysis.db</source>
        <translation>npuscope 不认识该文件名；按内容（msprof-analyze 集群表）作为 cluster_analysis.db 导入</translation>
    </message>
    <message>
        <source>folder nesting deeper than %1 levels; not searched further</source>
        <translation>文件夹嵌套超过 %1 层；不再继续搜索</translation>
    </message>
    <message>
        <source>MindInsight cluster_profiler job: %1 ranks from the rank table; hosts are shown by their host_ips_mapping.txt id</source>
        <translation>MindInsight cluster_profiler 作业：rank table 给出 %1 张卡；主机按其 host_ips_mapping.txt 编号显示</translation>
    </message>
    <message>
        <source>cannot list folder: %1</source>
        <translation>无法列出文件夹：%1</translation>
    </message>
    <message>
        <source>the device folder&apos;s own op_summary files were imported instead</source>
        <translation>已改为导入设备文件夹自己的 op_summary 文件</translation>
    </message>
    <message>
        <source>op_summary of a PROF_* folder with %1 devices holds the tasks of all of them; not imported (not split by device)</source>
        <translation>有 %1 个设备的 PROF_* 文件夹中的 op_summary 包含所有设备的任务；未导入（不按设备拆分）</translation>
    </message>
    <message>
        <source>nothing (no table it reads has rows)</source>
        <translation>无（其读取的表都没有行）</translation>
    </message>
    <message>
        <source>rank folder holds a db export and text files; each kind of data comes from one file: %1%2%3</source>
        <translation>卡文件夹同时包含 db 导出和文本文件；每类数据只取自一个文件：%1%2%3</translation>
    </message>
    <message>
        <source>; text: %1</source>
        <translation>；文本：%1</translation>
    </message>
    <message>
        <source>; ignored, as a db export holds their data: %1</source>
        <translation>；已忽略，因为 db 导出已包含其数据：%1</translation>
    </message>
    <message>
        <source>%1 holds %2 devices (%3) in one file: one rank per device, </source>
        <translation>%1 在一个文件中包含 %2 个设备（%3）：每个设备一张卡，</translation>
    </message>
    <message>
        <source>rank ids = device ids (the folder&apos;s rank %1 from %2 names one process, not one device)</source>
        <translation>卡号 = 设备号（该文件夹来自 %2 的卡号 %1 表示一个进程，而非一个设备）</translation>
    </message>
    <message>
        <source>rank ids come from the device ids because there is no rank information</source>
        <translation>卡号取自设备号，因为没有卡的信息</translation>
    </message>
    <message>
        <source>; %1 not split by device, planned for rank %2</source>
        <translation>；%1 不按设备拆分，归入卡 %2</translation>
    </message>
    <message>
        <source>op_summary of another device than %1, which was planned first for this folder; ignored</source>
        <translation>与本文件夹先规划的 %1 不是同一设备的 op_summary；已忽略</translation>
    </message>
    <message>
        <source>%1 PyTorch profiler (Kineto) traces in one folder: one rank each (distributedInfo.rank)</source>
        <translation>一个文件夹中有 %1 个 PyTorch profiler（Kineto）trace：每个一张卡（distributedInfo.rank）</translation>
    </message>
    <message>
        <source>file name not known to npuscope; by its content (%1) imported as %2</source>
        <translation>npuscope 不认识该文件名；按内容（%1）作为 %2 导入</translation>
    </message>
    <message>
        <source>by its content (%1) a %2 file, but the folder already has one; ignored</source>
        <translation>按内容（%1）是 %2 文件，但该文件夹已有一个；已忽略</translation>
    </message>
    <message>
        <source>rank folder holds kernel_details.csv; ignored the CANN %1</source>
        <translation>卡文件夹包含 kernel_details.csv；已忽略 CANN 的 %1</translation>
    </message>
    <message>
        <source>rank %1 from the file name %2; in CANN output this number is the device id, which may differ from the global rank</source>
        <translation>卡号 %1 取自文件名 %2；在 CANN 输出中该编号是设备号，可能与全局卡号不同</translation>
    </message>
    <message>
        <source>rank folder holds only %1%2: a rank with its facts (rank_info) only; no step, communication or timeline data</source>
        <translation>卡文件夹只包含 %1%2：一张只有基本信息（rank_info）的卡；没有迭代、通信或时间线数据</translation>
    </message>
    <message>
        <source> (%1 holds no file npuscope imports)</source>
        <translation>（%1 中没有 npuscope 导入的文件）</translation>
    </message>
    <message>
        <source>rank folder holds only .db files of a kind npuscope does not import; skipped</source>
        <translation>卡文件夹只包含 npuscope 不导入的 .db 文件；已跳过</translation>
    </message>
    <message>
        <source>rank folder holds no file npuscope imports; %1</source>
        <translation>卡文件夹中没有 npuscope 导入的文件；%1</translation>
    </message>
    <message>
        <source>rank %1 is known only from %2 (no profiler_info_%3.json or data files for it): a rank with parallel-strategy facts only; no step, communication or timeline data</source>
        <translation>卡 %1 只出现在 %2 中（没有 profiler_info_%3.json 或数据文件）：一张只有并行策略信息的卡；没有迭代、通信或时间线数据</translation>
    </message>
    <message>
        <source>another msprof-analyze cluster summary was found first (%1); this one was not imported%2</source>
        <translation>已先找到另一个 msprof-analyze 集群汇总（%1）；此汇总未导入%2</translation>
    </message>
    <message>
        <source>, nor the per-rank files next to it</source>
        <translation>，其旁边的各卡文件也未导入</translation>
    </message>
    <message>
        <source>msprof-analyze cluster summary names no rank (no Type=rank rows, no communication groups); nothing imported</source>
        <translation>msprof-analyze 集群汇总中没有任何卡（没有 Type=rank 行，也没有通信域）；未导入任何数据</translation>
    </message>
    <message>
        <source>msprof-analyze cluster summary (cluster_analysis_output): %1 ranks from the summary files</source>
        <translation>msprof-analyze 集群汇总（cluster_analysis_output）：汇总文件给出 %1 张卡</translation>
    </message>
    <message>
        <source>; per-rank files next to it add the own data of rank %1</source>
        <translation>；其旁边的各卡文件补充卡 %1 自身的数据</translation>
    </message>
    <message>
        <source>; the step and communication figures of rank %1 come from their own per-rank folders (which have their own summary files), not from the summary</source>
        <translation>；卡 %1 的迭代和通信数据来自其各自的卡文件夹（它们有自己的汇总文件），而非集群汇总</translation>
    </message>
    <message>
        <source>; per-rank folders without summary files add their timelines / kernels to rank %1</source>
        <translation>；没有汇总文件的卡文件夹为卡 %1 补充时间线 / 核函数</translation>
    </message>
    <message>
        <source>; no per-rank timelines, kernels or memory</source>
        <translation>；没有各卡的时间线、核函数或内存数据</translation>
    </message>
    <message>
        <source>rank %1: the cluster summary gives its step and communication figures; ignored its own %2</source>
        <translation>卡 %1：其迭代和通信数据由集群汇总给出；已忽略其自身的 %2</translation>
    </message>
    <message>
        <source>rank %1 (from %2) is not one of the cluster summary&apos;s ranks; shown beside them</source>
        <translation>卡 %1（来自 %2）不属于集群汇总中的卡；显示在它们旁边</translation>
    </message>
    <message>
        <source>rank id not found (no profiler_info_{rank}.json, rank_id field or rank number in the folder name); assigned rank %1</source>
        <translation>未找到卡号（没有 profiler_info_{rank}.json、rank_id 字段或文件夹名中的卡号）；分配为卡 %1</translation>
    </message>
    <message>
        <source>rank %1 found in %2 folders; kept the newest by %3 (%4), ignored: %5</source>
        <translation>卡 %1 出现在 %2 个文件夹中；按%3保留最新的（%4），已忽略：%5</translation>
    </message>
    <message>
        <source>folder timestamp</source>
        <translation>文件夹时间戳</translation>
    </message>
    <message>
        <source>file time</source>
        <translation>文件时间</translation>
    </message>
    <message>
        <source>rank %1 found more than once; this imported file is ignored</source>
        <translation>卡 %1 出现了不止一次；忽略此导入文件</translation>
    </message>
    <message>
        <source>the input mixes several profiling runs (the same rank appears more than once); showing one folder per rank, which may combine different runs</source>
        <translation>输入混合了多次采集（同一张卡出现多次）；每张卡只显示一个文件夹，可能混合不同的采集</translation>
    </message>
    <message>
        <source>SQLite file with none of the tables npuscope imports (StepTraceTime, CommAnalyzer*, TASK, STRING_IDS, CANN_API, API, ClusterStepTraceTime); ignored</source>
        <translation>SQLite 文件中没有 npuscope 导入的任何表（StepTraceTime、CommAnalyzer*、TASK、STRING_IDS、CANN_API、API、ClusterStepTraceTime）；已忽略</translation>
    </message>
    <message>
        <source>starts with the SQLite header but is not a readable SQLite database (truncated or damaged?); ignored: %1</source>
        <translation>以 SQLite 文件头开始，但不是可读取的 SQLite 数据库（被截断或损坏？）；已忽略：%1</translation>
    </message>
    <message>
        <source>cannot read the tables of this db export, so the text files beside it are used: %1</source>
        <translation>无法读取此 db 导出的表，因此改用其旁边的文本文件：%1</translation>
    </message>
    <message>
        <source>holds only %1 bytes of the 16-byte SQLite header (truncated SQLite file?); ignored</source>
        <translation>只有 SQLite 16 字节文件头中的 %1 字节（SQLite 文件被截断？）；已忽略</translation>
    </message>
    <message>
        <source>import cancelled</source>
        <translation>导入已取消</translation>
    </message>
    <message>
        <source>cannot decompress the file after %1 bytes (%2); the events read before are kept</source>
        <translation>解压到 %1 字节后失败（%2）；保留之前读取的事件</translation>
    </message>
    <message>
        <source>%1; the events read before are kept</source>
        <translation>%1；保留之前读取的事件</translation>
    </message>
    <message>
        <source>JSON parse stopped</source>
        <translation>JSON 解析中止</translation>
    </message>
    <message>
        <source>%1 flow events (ph s / t / f) without an integer pid / tid, a ts or an id are not imported</source>
        <translation>%1 个流事件（ph s / t / f）缺少整数 pid / tid、ts 或 id，未导入</translation>
    </message>
    <message>
        <source>%1 [memory] events of the CPU (Device Type 0) are not imported; the GPU&apos;s are memory_record rows</source>
        <translation>%1 个 CPU（Device Type 0）的 [memory] 事件未导入；GPU 的事件作为 memory_record 行导入</translation>
    </message>
    <message>
        <source>%1 [memory] events without a ts or args are not imported</source>
        <translation>%1 个缺少 ts 或 args 的 [memory] 事件未导入</translation>
    </message>
    <message>
        <source>%1 GPU activities were launched outside every ProfilerStep range; they are kernels without a step and in no step&apos;s breakdown</source>
        <translation>%1 个 GPU 活动在所有 ProfilerStep 范围之外下发；它们是不属于任何迭代的核函数，不计入任何迭代的耗时分解</translation>
    </message>
    <message>
        <source>%1 GPU activities have no runtime call with their correlation id in the trace; they are kernels without a step and in no step&apos;s breakdown</source>
        <translation>%1 个 GPU 活动在 trace 中没有相同 correlation id 的 runtime 调用；它们是不属于任何迭代的核函数，不计入任何迭代的耗时分解</translation>
    </message>
    <message>
        <source>%1 complete events without an integer pid / tid or a ts (the profiler&apos;s own Spans / Traces markers) are not on the timeline</source>
        <translation>%1 个 complete 事件缺少整数 pid / tid 或 ts（profiler 自身的 Spans / Traces 标记），不显示在时间线上</translation>
    </message>
    <message>
        <source>link key &quot;%1&quot; is not &quot;src-dst&quot;; skipped</source>
        <translation>链路键 &quot;%1&quot; 不是 &quot;src-dst&quot;；已跳过</translation>
    </message>
    <message>
        <source>link_info is not JSON; step links skipped</source>
        <translation>link_info 不是 JSON；已跳过迭代链路</translation>
    </message>
    <message>
        <source>communication_operator_cost is not a JSON object; ops skipped</source>
        <translation>communication_operator_cost 不是 JSON 对象；已跳过算子</translation>
    </message>
    <message>
        <source>link keys are local ranks of this rank&apos;s communication group and the file names no single self-link &quot;k-k&quot; (found %1): global src/dst of its links are unknown</source>
        <translation>链路键是本卡通信域内的本地卡号，且文件中没有唯一的自环链路 &quot;k-k&quot;（找到 %1）：其链路的全局 src/dst 未知</translation>
    </message>
    <message>
        <source>link keys are local ranks of this rank&apos;s communication group (the file lists no members); global ranks inferred: the self-link &quot;%1-%2&quot; makes rank %3 local %4, and %5 (pipeline-parallel, %6 stages of %7 ranks) gives contiguous stage groups of %8: local k = global %9 + k</source>
        <translation>链路键是本卡通信域内的本地卡号（文件未列出成员）；已推断全局卡号：自环链路 &quot;%1-%2&quot; 表明卡 %3 是本地 %4，且 %5（流水线并行，%6 个阶段，每阶段 %7 张卡）给出每组 %8 张卡的连续阶段组：本地 k = 全局 %9 + k</translation>
    </message>
    <message>
        <source>link keys are local ranks of this rank&apos;s communication group; %1 describes contiguous stage groups of %2 ranks, which does not fit rank %3 being local %4 (local ranks %5): global src/dst of links to other ranks are unknown</source>
        <translation>链路键是本卡通信域内的本地卡号；%1 描述了每组 %2 张卡的连续阶段组，这与卡 %3 为本地 %4（本地卡号 %5）不符：到其他卡的链路的全局 src/dst 未知</translation>
    </message>
    <message>
        <source>link keys are local ranks (%1) of this rank&apos;s communication group, and neither the file nor the layout lists the group&apos;s members (no ascend_cluster_analyse_pipeline-parallel_*_%2.csv beside it): only the self-link &quot;%3-%4&quot; (this rank) has global ranks; links to other ranks have no global src/dst</source>
        <translation>链路键是本卡通信域内的本地卡号（%1），而文件和布局都没有列出该通信域的成员（旁边没有 ascend_cluster_analyse_pipeline-parallel_*_%2.csv）：只有自环链路 &quot;%3-%4&quot;（本卡）有全局卡号；到其他卡的链路没有全局 src/dst</translation>
    </message>
    <message>
        <source>MindInsight cluster job without a rank table (hccl.json or any *.json)</source>
        <translation>MindInsight 集群作业没有 rank table（hccl.json 或任何 *.json）</translation>
    </message>
    <message>
        <source>rank table is not JSON with a server_list</source>
        <translation>rank table 不是带 server_list 的 JSON</translation>
    </message>
    <message>
        <source>no host_ips_mapping.txt; hosts cannot be matched to cluster_profiler folders</source>
        <translation>没有 host_ips_mapping.txt；主机无法与 cluster_profiler 文件夹对应</translation>
    </message>
    <message>
        <source>device %1 of host %2 is not in the rank table; its files were not imported</source>
        <translation>主机 %2 的设备 %1 不在 rank table 中；其文件未导入</translation>
    </message>
    <message>
        <source>the rank table lists %1 ranks; files were found for %2</source>
        <translation>rank table 列出 %1 张卡；找到了 %2 张卡的文件</translation>
    </message>
    <message>
        <source>no host_ips_mapping.txt next to the rank table; hosts are shown by server index</source>
        <translation>rank table 旁没有 host_ips_mapping.txt；主机按服务器序号显示</translation>
    </message>
    <message>
        <source>rank table has no server_list</source>
        <translation>rank table 没有 server_list</translation>
    </message>
    <message>
        <source>server #%1 of the rank table has no host_ips_mapping.txt entry</source>
        <translation>rank table 的第 %1 台服务器在 host_ips_mapping.txt 中没有条目</translation>
    </message>
    <message>
        <source>rank %1 is not in the rank table</source>
        <translation>卡 %1 不在 rank table 中</translation>
    </message>
    <message>
        <source>%1: cannot read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <source>step breakdown columns from %1 (%2 steps)</source>
        <translation>迭代耗时分解列取自 %1（%2 个迭代）</translation>
    </message>
    <message>
        <source>tick count %1 is out of range; left out</source>
        <translation>tick 计数 %1 超出范围；已略去</translation>
    </message>
    <message>
        <source>%1: not a cycle counter (&quot;%2&quot;)</source>
        <translation>%1：不是 cycle counter（&quot;%2&quot;）</translation>
    </message>
    <message>
        <source>timeline placed on the device system counter clock (ns since the counter started, not epoch) by min_cycle_counter_%1.txt; ranks of one server share that clock, other servers do not</source>
        <translation>时间线按 min_cycle_counter_%1.txt 放在设备 system counter 时钟上（自计数器启动起的 ns，而非 epoch）；同一服务器的卡共用该时钟，不同服务器则不共用</translation>
    </message>
    <message>
        <source>timeline is relative: times are µs from the rank&apos;s first task and the profile holds no epoch base (no min_cycle_counter_{id}.txt next to it), so this rank&apos;s timeline starts at 0 and does not line up with other ranks</source>
        <translation>时间线是相对时间：时间是从本卡第一个任务起的 µs，且性能数据中没有 epoch 基准（旁边没有 min_cycle_counter_{id}.txt），因此本卡时间线从 0 开始，无法与其他卡对齐</translation>
    </message>
    <message>
        <source>step spans not drawn: %1: %2</source>
        <translation>未绘制迭代区间：%1：%2</translation>
    </message>
    <message>
        <source>%1 steps of %2 drawn as the Step Trace process (same clock)</source>
        <translation>%2 的 %1 个迭代绘制为 Step Trace 进程（同一时钟）</translation>
    </message>
    <message>
        <source>invalid JSON at byte %1: %2</source>
        <translation>第 %1 字节处 JSON 无效：%2</translation>
    </message>
    <message>
        <source>cannot open file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>expected a JSON object at the top level</source>
        <translation>顶层应为 JSON 对象</translation>
    </message>
    <message>
        <source>no &quot;config&quot; object (rankId, stageId, parallelType); only the node count is kept</source>
        <translation>没有 &quot;config&quot; 对象（rankId、stageId、parallelType）；只保留节点数</translation>
    </message>
    <message>
        <source>config.rankId is %1 but the file name gives rank %2; facts kept under the file name&apos;s rank</source>
        <translation>config.rankId 为 %1，但文件名给出卡 %2；信息按文件名的卡号保存</translation>
    </message>
    <message>
        <source>ClusterStepTraceTime rank row without a numeric index; skipped</source>
        <translation>ClusterStepTraceTime 的 rank 行缺少数值型 index；已跳过</translation>
    </message>
    <message>
        <source>%1 ClusterStepTraceTime rows of a type other than &quot;rank&quot; or &quot;stage&quot; were not imported</source>
        <translation>%1 行类型不是 &quot;rank&quot; 或 &quot;stage&quot; 的 ClusterStepTraceTime 未导入</translation>
    </message>
    <message>
        <source>ClusterCommAnalyzerTime row without rank_id or hccl_op_name; skipped</source>
        <translation>ClusterCommAnalyzerTime 行缺少 rank_id 或 hccl_op_name；已跳过</translation>
    </message>
    <message>
        <source>%1 ClusterCommAnalyzerBandwidth rows name an op missing from ClusterCommAnalyzerTime; skipped</source>
        <translation>%1 行 ClusterCommAnalyzerBandwidth 引用了 ClusterCommAnalyzerTime 中不存在的算子；已跳过</translation>
    </message>
    <message>
        <source>ClusterCommAnalyzerMatrix row of %1 without numeric ranks; skipped</source>
        <translation>%1 的 ClusterCommAnalyzerMatrix 行缺少数值型卡号；已跳过</translation>
    </message>
    <message>
        <source>no ClusterStepTraceTime table; no step breakdown from this file</source>
        <translation>没有 ClusterStepTraceTime 表；此文件不提供迭代耗时分解</translation>
    </message>
    <message>
        <source>rank row without a numeric Index; skipped</source>
        <translation>rank 行缺少数值型 Index；已跳过</translation>
    </message>
    <message>
        <source>%1 rows of a Type other than &quot;rank&quot; or &quot;stage&quot; were not imported</source>
        <translation>%1 行 Type 不是 &quot;rank&quot; 或 &quot;stage&quot; 的数据未导入</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an object; skipped</source>
        <translation>&quot;%1&quot; 不是对象；已跳过</translation>
    </message>
    <message>
        <source>%1 groups repeat a group_name hash; the first is kept</source>
        <translation>%1 个通信域的 group_name 哈希重复；保留第一个</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an array; skipped</source>
        <translation>&quot;%1&quot; 不是数组；已跳过</translation>
    </message>
    <message>
        <source>%1 rank sets are not arrays of integers; skipped</source>
        <translation>%1 个卡集合不是整数数组；已跳过</translation>
    </message>
    <message>
        <source>op &quot;%1&quot;: &quot;%2&quot; is not a rank id; skipped</source>
        <translation>算子 &quot;%1&quot;：&quot;%2&quot; 不是卡号；已跳过</translation>
    </message>
    <message>
        <source>op &quot;%1&quot;: link key &quot;%2&quot; is not &quot;src-dst&quot;</source>
        <translation>算子 &quot;%1&quot;：链路键 &quot;%2&quot; 不是 &quot;src-dst&quot;</translation>
    </message>
    <message>
        <source>cannot read cluster_analysis.db: %1</source>
        <translation>无法读取 cluster_analysis.db：%1</translation>
    </message>
    <message>
        <source>cluster_analysis_output holds both cluster_analysis.db and text files; using the db, ignored: %1</source>
        <translation>cluster_analysis_output 同时包含 cluster_analysis.db 和文本文件；使用 db，已忽略：%1</translation>
    </message>
    <message>
        <source>cluster_analysis_output holds only communication_group.json: ranks and communication groups are loaded, but there is no step or communication data (no cluster_step_trace_time.csv, cluster_communication*.json or cluster_analysis.db)</source>
        <translation>cluster_analysis_output 只包含 communication_group.json：已加载卡和通信域，但没有迭代或通信数据（没有 cluster_step_trace_time.csv、cluster_communication*.json 或 cluster_analysis.db）</translation>
    </message>
    <message>
        <source>op &quot;%1&quot; of rank %2 has no &quot;Communication Time Info&quot;</source>
        <translation>卡 %2 的算子 &quot;%1&quot; 没有 &quot;Communication Time Info&quot;</translation>
    </message>
    <message>
        <source>op &quot;%1&quot; %2: bad Size Distribution entry</source>
        <translation>算子 &quot;%1&quot; %2：Size Distribution 条目无效</translation>
    </message>
    <message>
        <source>record larger than %1 MiB (unclosed quote or binary data?), import stopped</source>
        <translation>记录大于 %1 MiB（引号未闭合或为二进制数据？），导入中止</translation>
    </message>
    <message>
        <source>import failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>not a CSV text file</source>
        <translation>不是 CSV 文本文件</translation>
    </message>
    <message>
        <source>empty file</source>
        <translation>空文件</translation>
    </message>
    <message>
        <source>missing required column %1 (found: %2)</source>
        <translation>缺少必需的列 %1（找到的列：%2）</translation>
    </message>
    <message>
        <source>not a CSV text file: binary data, import stopped</source>
        <translation>不是 CSV 文本文件：包含二进制数据，导入中止</translation>
    </message>
    <message>
        <source>file ends inside a quoted field (truncated?), last record skipped</source>
        <translation>文件在带引号的字段内结束（被截断？），已跳过最后一条记录</translation>
    </message>
    <message>
        <source>row has %1 fields, header has %2</source>
        <translation>该行有 %1 个字段，表头有 %2 个</translation>
    </message>
    <message>
        <source>no data rows</source>
        <translation>没有数据行</translation>
    </message>
    <message>
        <source>malformed number %1 in column %2, stored as NULL</source>
        <translation>列 %2 中的数值 %1 格式错误，存为 NULL</translation>
    </message>
    <message>
        <source>row skipped: %1 in required column %2</source>
        <translation>已跳过该行：必需的列 %2 %1</translation>
    </message>
    <message>
        <source>%1 more problems in this file were not listed</source>
        <translation>此文件中另有 %1 个问题未列出</translation>
    </message>
    <message>
        <source>&quot;%1.%2&quot; is not an object; skipped</source>
        <translation>&quot;%1.%2&quot; 不是对象；已跳过</translation>
    </message>
    <message>
        <source>op &quot;%1&quot; is not an object; skipped</source>
        <translation>算子 &quot;%1&quot; 不是对象；已跳过</translation>
    </message>
    <message>
        <source>no communication ops in this file</source>
        <translation>此文件中没有通信算子</translation>
    </message>
    <message>
        <source>file changed while it was imported: the PMU columns of its kernels cannot be read back</source>
        <translation>文件在导入期间被修改：其核函数的 PMU 列无法回读</translation>
    </message>
    <message>
        <source>parallel_group_info is not an object; group names unknown</source>
        <translation>parallel_group_info 不是对象；通信域名称未知</translation>
    </message>
    <message>
        <source>parallel_group_info.%1 has no global_ranks list</source>
        <translation>parallel_group_info.%1 没有 global_ranks 列表</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失值</translation>
    </message>
    <message>
        <source>number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>object/array</source>
        <translation>对象/数组</translation>
    </message>
    <message>
        <source>event at byte %1: %2</source>
        <translation>第 %1 字节处的事件：%2</translation>
    </message>
    <message>
        <source>ph %1 event with %2 %3%4, skipped</source>
        <translation>ph %1 事件的 %3 是%2%4，已跳过</translation>
    </message>
    <message>
        <source>args object larger than 16 MiB (or beyond 1 TiB into the file) dropped</source>
        <translation>大于 16 MiB（或位于文件 1 TiB 之后）的 args 对象已丢弃</translation>
    </message>
    <message>
        <source>file changed while it was imported (or is not a regular file): the args of %1 slices are not kept</source>
        <translation>文件在导入期间被修改（或不是普通文件）：%1 个切片的 args 未保留</translation>
    </message>
    <message>
        <source>%1 events with ph &quot;%2&quot; are not imported (only X, C, M, s, t, f are)</source>
        <translation>%1 个 ph 为 &quot;%2&quot; 的事件未导入（只导入 X、C、M、s、t、f）</translation>
    </message>
    <message>
        <source>%1 entries of the event array are not objects</source>
        <translation>事件数组中有 %1 个条目不是对象</translation>
    </message>
    <message>
        <source>cannot open trace file: %1</source>
        <translation>无法打开 trace 文件：%1</translation>
    </message>
    <message>
        <source>cannot read trace file: %1</source>
        <translation>无法读取 trace 文件：%1</translation>
    </message>
    <message>
        <source>file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>read error at byte %1: %2</source>
        <translation>第 %1 字节处读取错误：%2</translation>
    </message>
    <message>
        <source>syntax error at byte %1: %2 (events before this point were imported)</source>
        <translation>第 %1 字节处语法错误：%2（此前的事件已导入）</translation>
    </message>
    <message>
        <source>no trace events: expected a JSON array of events or {&quot;traceEvents&quot;: [...]}</source>
        <translation>没有 trace 事件：应为事件的 JSON 数组或 {&quot;traceEvents&quot;: [...]}</translation>
    </message>
    <message>
        <source>not JSON: syntax error at byte %1 (starts with byte %2, expected &apos;[&apos; or &apos;{&apos;)</source>
        <translation>不是 JSON：第 %1 字节处语法错误（以字节 %2 开头，应为 &apos;[&apos; 或 &apos;{&apos;）</translation>
    </message>
    <message>
        <source>not a CSV text file (binary data in its first bytes)</source>
        <translation>不是 CSV 文本文件（开头几个字节中有二进制数据）</translation>
    </message>
    <message>
        <source>not a CSV table: its first line has no comma-separated columns (&quot;%1&quot;)</source>
        <translation>不是 CSV 表：第一行没有逗号分隔的列（&quot;%1&quot;）</translation>
    </message>
    <message>
        <source>parse cache not written (the folder cannot be written: read-only, full or not a folder); loaded without it, so these files are parsed again next time</source>
        <translation>未写入解析缓存（该文件夹不可写：只读、已满或不是文件夹）；已在不使用缓存的情况下加载，下次将重新解析这些文件</translation>
    </message>
    <message>
        <source>no importer for this file kind in this build; skipped</source>
        <translation>此版本中没有该类文件的导入器；已跳过</translation>
    </message>
    <message>
        <source>the file changed while it was read (%1 -&gt; %2 bytes%3); what was read may mix two versions: reopen the folder to read it again</source>
        <translation>文件在读取期间发生变化（%1 -&gt; %2 字节%3）；读到的内容可能混合了两个版本：请重新打开文件夹再次读取</translation>
    </message>
    <message>
        <source>, modified</source>
        <translation>，已修改</translation>
    </message>
    <message>
        <source>imported group file unusable (%1); read the original files instead</source>
        <translation>导入的分组文件不可用（%1）；改为读取原始文件</translation>
    </message>
    <message>
        <source>parse cache entry unusable (%1); removed it and parsed the files again</source>
        <translation>解析缓存条目不可用（%1）；已删除并重新解析文件</translation>
    </message>
    <message>
        <source>parse cache entry %1 unusable (%2); removed it and parsed again</source>
        <translation>解析缓存条目 %1 不可用（%2）；已删除并重新解析</translation>
    </message>
    <message>
        <source>joined model %1 unusable (%2); merged the rank files instead</source>
        <translation>合并模型 %1 不可用（%2）；改为合并各卡文件</translation>
    </message>
    <message>
        <source>memory: the load grew to %1 % of the memory it may use (%2); the ranks read after that in lean mode: %3</source>
        <translation>内存：加载增长到其可用内存的 %1 %（%2）；此后读取的卡使用精简模式：%3</translation>
    </message>
    <message>
        <source>memory: the load used all the memory it may use (%1) even in lean mode; %2 of %3 ranks were left out (listed, files not read) so the process is not killed: open fewer ranks</source>
        <translation>内存：即使在精简模式下，加载也用尽了其可用内存（%1）；%3 张卡中有 %2 张被略去（已列出，文件未读取），以免进程被终止：请打开更少的卡</translation>
    </message>
    <message>
        <source>this load may need about %1 of memory but only about %2 is available (%3%4); loaded in lean mode: %5</source>
        <translation>此次加载可能需要约 %1 内存，但只有约 %2 可用（%3%4）；以精简模式加载：%5</translation>
    </message>
    <message>
        <source>, less a %1 % margin</source>
        <translation>，扣除 %1 % 的余量</translation>
    </message>
    <message>
        <source>the communication matrices&apos; per-op slots (top1, middle, bottom..) are left out (their &quot;total&quot; slot and the real-op links of older builds stay, so the summary figures are unchanged, but summary --json and the link views have fewer links), and no timelines or other deferred files are read; open fewer ranks for every link</source>
        <translation>通信矩阵中各算子的槽位（top1、middle、bottom..）被略去（保留其 &quot;total&quot; 槽位和旧版本的真实算子链路，因此汇总数据不变，但 summary --json 和链路视图中的链路更少），并且不读取时间线或其他延迟加载的文件；如需查看每条链路，请打开更少的卡</translation>
    </message>
    <message>
        <source>group %1: local rank %2 claimed by ranks %3 and %4; keeping the first</source>
        <translation>通信域 %1：本地卡 %2 同时被卡 %3 和 %4 占用；保留第一个</translation>
    </message>
    <message>
        <source>group %1: no profiler_metadata.json membership; the loaded ranks&apos; self-links map local ranks to equal global ranks, so the other %2 local ranks of its links are assumed global as well</source>
        <translation>通信域 %1：没有 profiler_metadata.json 成员信息；已加载卡的自环链路将本地卡号映射为相同的全局卡号，因此其链路中其余 %2 个本地卡号也假定为全局卡号</translation>
    </message>
    <message>
        <source>group %1: global ranks unknown for some local ranks (no profiler_metadata.json and no self-link from those ranks); their links have no global src/dst</source>
        <translation>通信域 %1：部分本地卡的全局卡号未知（没有 profiler_metadata.json，这些卡也没有自环链路）；其链路没有全局 src/dst</translation>
    </message>
    <message>
        <source>path cannot be read: %1</source>
        <translation>路径无法读取：%1</translation>
    </message>
    <message>
        <source>path does not exist</source>
        <translation>路径不存在</translation>
    </message>
    <message>
        <source>folder cannot be read: %1</source>
        <translation>文件夹无法读取：%1</translation>
    </message>
    <message>
        <source>folder is empty</source>
        <translation>文件夹为空</translation>
    </message>
    <message>
        <source>not a folder or a regular file (a device, pipe or socket)</source>
        <translation>既不是文件夹也不是普通文件（设备、管道或套接字）</translation>
    </message>
    <message>
        <source>file cannot be read: %1</source>
        <translation>文件无法读取：%1</translation>
    </message>
    <message>
        <source>file looks truncated: it ends at byte %1 inside a JSON value (&quot;…%2&quot;), not with &apos;]&apos; or &apos;}&apos;; the timeline stops where the file was cut</source>
        <translation>文件疑似被截断：在第 %1 字节处结束于一个 JSON 值内部（&quot;…%2&quot;），而不是以 &apos;]&apos; 或 &apos;}&apos; 结尾；时间线在截断处终止</translation>
    </message>
    <message>
        <source>column %1 holds timestamps in scientific notation (%2), as a spreadsheet saves them: they are rounded to 10^%3 µs, so times in this file are not exact and do not line up with other files</source>
        <translation>列 %1 的时间戳为科学计数法（%2），这是电子表格保存后的形式：已舍入到 10^%3 µs，因此本文件中的时间不精确，且无法与其他文件对齐</translation>
    </message>
    <message>
        <source>%1: not a MindSpore FLOPs file: the header names no op (op_full_name, full_kernel_name) or no FLOPs column</source>
        <translation>%1：不是 MindSpore FLOPs 文件：表头没有算子名列（op_full_name、full_kernel_name）或没有 FLOPs 列</translation>
    </message>
    <message>
        <source>%1: link #%2 has no source, target or numeric value; skipped: %3</source>
        <translation>%1：第 %2 条链接缺少 source、target 或数值 value，已跳过：%3</translation>
    </message>
    <message>
        <source>%1: no data.links array (FLOPs per scope)</source>
        <translation>%1：没有 data.links 数组（按作用域的 FLOPs）</translation>
    </message>
    <message>
        <source>%1: no FLOPs scope links</source>
        <translation>%1：没有 FLOPs 作用域链接</translation>
    </message>
    <message>
        <source>flops_summary: not a JSON object</source>
        <translation>flops_summary：不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1: %2 is not a number: %3</source>
        <translation>%1：%2 不是数字：%3</translation>
    </message>
    <message>
        <source>op_id is not an integer: &quot;%1&quot;; the row is skipped</source>
        <translation>op_id 不是整数：“%1”；已跳过该行</translation>
    </message>
    <message>
        <source>output_queue_size is not a list of numbers: &quot;%1&quot;; samples ignored</source>
        <translation>output_queue_size 不是数字列表：“%1”；已忽略采样</translation>
    </message>
    <message>
        <source>%1 has no integer op_id; the operator is skipped</source>
        <translation>%1 没有整数 op_id；已跳过该算子</translation>
    </message>
    <message>
        <source>%1 metrics have no output_queue object</source>
        <translation>%1 的 metrics 没有 output_queue 对象</translation>
    </message>
    <message>
        <source>%1 output_queue.size is not a list of numbers</source>
        <translation>%1 的 output_queue.size 不是数字列表</translation>
    </message>
    <message>
        <source>no op_info array</source>
        <translation>没有 op_info 数组</translation>
    </message>
    <message>
        <source>no dataset operators in op_info</source>
        <translation>op_info 中没有数据集算子</translation>
    </message>
    <message>
        <source>%1 is not an object of series</source>
        <translation>%1 不是由序列组成的对象</translation>
    </message>
    <message>
        <source>%1.%2 is not a list of numbers; the series is skipped</source>
        <translation>%1.%2 不是数字列表；已跳过该序列</translation>
    </message>
    <message>
        <source>queue line has %1 fields, expected 4 or 5; skipped</source>
        <translation>队列行有 %1 个字段，应为 4 或 5 个；已跳过</translation>
    </message>
    <message>
        <source>field %1 is not an integer: &quot;%2&quot;; the line is skipped</source>
        <translation>第 %1 个字段不是整数：“%2”；已跳过该行</translation>
    </message>
    <message>
        <source>no %1 object</source>
        <translation>没有 %1 对象</translation>
    </message>
    <message>
        <source>%1 has no integer op_id or no metrics; skipped</source>
        <translation>%1 没有整数 op_id 或没有 metrics；已跳过</translation>
    </message>
    <message>
        <source>op_info is not an array</source>
        <translation>op_info 不是数组</translation>
    </message>
    <message>
        <source>unknown record type &quot;%1&quot; (0 time, 1 queue); skipped</source>
        <translation>未知记录类型“%1”（0 为耗时，1 为队列）；已跳过</translation>
    </message>
    <message>
        <source>no queue samples (&quot;1 ...&quot; lines)</source>
        <translation>没有队列采样（“1 ...”行）</translation>
    </message>
    <message>
        <source>no graph.node array: the strategy graph of this rank is empty</source>
        <translation>没有 graph.node 数组：该 rank 的策略图为空</translation>
    </message>
    <message>
        <source>%1 graph nodes without a name or fullName left out</source>
        <translation>已略去 %1 个没有 name 或 fullName 的图节点</translation>
    </message>
    <message>
        <source>rank %1 has %2 dynamic-profiler windows (steps %3); each is kept as a step range of its own</source>
        <translation>rank %1 有 %2 个动态采集窗口（step %3）；每个窗口保留为独立的 step 区间</translation>
    </message>
    <message>
        <source>%1: expected a JSON object at the top level</source>
        <translation>%1：顶层应为 JSON 对象</translation>
    </message>
    <message>
        <source>%1: %2 is not a non-negative number: %3; not used</source>
        <translation>%1：%2 不是非负数：%3；未使用</translation>
    </message>
    <message>
        <source>%1: no capacity, peak_mem or static_mem figure; not a MindSpore memory summary</source>
        <translation>%1：没有 capacity、peak_mem 或 static_mem 数值；不是 MindSpore 内存摘要</translation>
    </message>
    <message>
        <source>%1: graph %2 has no nodes and lines arrays; skipped</source>
        <translation>%1：图 %2 没有 nodes 和 lines 数组；已跳过</translation>
    </message>
    <message>
        <source>%1: graph %2 has %3 nodes but %4 line values; the nodes without a value are skipped</source>
        <translation>%1：图 %2 有 %3 个节点但只有 %4 个 lines 值；没有值的节点已跳过</translation>
    </message>
    <message>
        <source>%1: graph %2, node %3: no name or its line value is not a number; skipped</source>
        <translation>%1：图 %2，节点 %3：没有名称或其 lines 值不是数字；已跳过</translation>
    </message>
    <message>
        <source>%1: no graph with named nodes and line values</source>
        <translation>%1：没有含已命名节点和 lines 值的图</translation>
    </message>
    <message>
        <source>the strategy graph could not be read (%1): it is left out</source>
        <translation>无法读取策略图（%1）：已略去</translation>
    </message>
    <message>
        <source>stage %1&apos;s graph is read from this rank&apos;s file: the ranks before it in the stage have no file or no readable graph</source>
        <translation>stage %1 的图读自此 rank 的文件：该 stage 中排在它之前的 rank 没有文件或没有可读的图</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::ParseIssuesDock</name>
    <message>
        <source>Parse issues</source>
        <translation>解析问题</translation>
    </message>
    <message>
        <source>Filter by file, message, rank…</source>
        <translation>按文件、信息、卡筛选…</translation>
    </message>
    <message>
        <source>All severities</source>
        <translation>所有严重程度</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>issue</source>
        <translation>个问题</translation>
    </message>
    <message>
        <source>issues</source>
        <translation>个问题</translation>
    </message>
    <message>
        <source>%1 of %2 %3</source>
        <translation>%1 / %2 %3</translation>
    </message>
    <message>
        <source> (%1 warnings or errors)</source>
        <translation>（其中 %1 个警告或错误）</translation>
    </message>
    <message>
        <source>No parse issues: every file was read as expected.</source>
        <translation>没有解析问题：所有文件均按预期读取。</translation>
    </message>
    <message>
        <source>No issue matches the filter (%1 in all).</source>
        <translation>没有符合筛选条件的问题（共 %1 个）。</translation>
    </message>
</context>
<context>
    <name>PathKind</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PathSegmentTableModel</name>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>The rank the segment runs on</source>
        <translation>片段所在的 rank</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>compute (a kernel), communication (the last arriver&apos;s own wait, then the transfer), host (the device waiting for the host to launch the next task) or idle (before the step&apos;s first task)</source>
        <translation>计算（kernel）、通信（最后到达者自身的等待，然后是传输）、Host（设备等待 Host 下发下一个任务）或空闲（该步第一个任务之前）</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>The kernel or communication op; empty for host and idle</source>
        <translation>kernel 或通信算子；Host 和空闲为空</translation>
    </message>
    <message>
        <source>Start (ms)</source>
        <translation>开始 (ms)</translation>
    </message>
    <message>
        <source>From the start of the path (the slowest rank&apos;s step start)</source>
        <translation>自路径起点（最慢 rank 的步开始）起</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>时长 (ms)</translation>
    </message>
    <message>
        <source>The segment&apos;s time on the path</source>
        <translation>片段在路径上的时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Of the path&apos;s length (the step time of the slowest rank)</source>
        <translation>占路径长度（最慢 rank 的步时间）的比例</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PieChart</name>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>… %1 more (hover the pie)</source>
        <translation>… 另有 %1 项（悬停饼图查看）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PipelineChain</name>
    <message>
        <source>Device queue: empty in %1 of %2 samples, full in %3; capacity %4</source>
        <translation>设备队列：%2 次采样中 %1 次为空，%3 次为满；容量 %4</translation>
    </message>
    <message>
        <source>%1 (op %2)
Workers: %3
Output queue: %4 used, capacity %5, mean %6 rows
CPU: %7 %</source>
        <translation>%1（算子 %2）
工作线程：%3
输出队列：使用率 %4，容量 %5，平均 %6 行
CPU：%7 %</translation>
    </message>
    <message>
        <source>No data pipeline for this rank</source>
        <translation>该 rank 没有数据管道</translation>
    </message>
    <message>
        <source>op %1 · %2 workers</source>
        <translation>算子 %1 · %2 个工作线程</translation>
    </message>
    <message>
        <source>op %1</source>
        <translation>算子 %1</translation>
    </message>
    <message>
        <source>queue %1 · bottleneck</source>
        <translation>队列 %1 · 瓶颈</translation>
    </message>
    <message>
        <source>queue %1</source>
        <translation>队列 %1</translation>
    </message>
    <message>
        <source>Device queue</source>
        <translation>设备队列</translation>
    </message>
    <message>
        <source>empty %1 of %2 samples</source>
        <translation>%2 次采样中空 %1</translation>
    </message>
    <message>
        <source>no device queue file</source>
        <translation>无设备队列文件</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PipelineDock</name>
    <message>
        <source>%1 (op %2)</source>
        <translation>%1（算子 %2）</translation>
    </message>
    <message>
        <source>Bottleneck: %1. Rule queue_drop: its output queue (%2 % used) is emptier than its input queue (%3 %) by more than %4 %: it consumes faster than it produces.</source>
        <translation>瓶颈：%1。规则 queue_drop：其输出队列（使用率 %2 %）比输入队列（%3 %）空出 %4 % 以上：它消费得比产出快。</translation>
    </message>
    <message>
        <source>Bottleneck: %1. Rule slow_source: a source whose output queue is %2 % used (below %3 %): reading the data is too slow.</source>
        <translation>瓶颈：%1。规则 slow_source：源算子的输出队列使用率为 %2 %（低于 %3 %）：数据读取太慢。</translation>
    </message>
    <message>
        <source>Bottleneck: %1. Rule all_queues_full: every queue below it is above %2 % used: the last operator or the transfer to the device is too slow.</source>
        <translation>瓶颈：%1。规则 all_queues_full：其下游各队列使用率均高于 %2 %：最后一个算子或向设备的传输太慢。</translation>
    </message>
    <message>
        <source>No bottleneck: the device queue was empty in %1 % of the samples (at most %2 %), the pipeline keeps up with the device.</source>
        <translation>无瓶颈：设备队列在 %1 % 的采样中为空（不超过 %2 %），数据管道跟得上设备。</translation>
    </message>
    <message>
        <source>No bottleneck found: no operator has sampled output queue figures.</source>
        <translation>未找到瓶颈：没有算子带有输出队列的采样数据。</translation>
    </message>
    <message>
        <source>No bottleneck found: no operator&apos;s queues single one out (no queue drop above %1 %, no source below %2 %, not every queue above %3 %).</source>
        <translation>未找到瓶颈：各算子的队列未能指出某一个算子（没有超过 %1 % 的队列落差，没有低于 %2 % 的源算子，也不是所有队列都高于 %3 %）。</translation>
    </message>
    <message>
        <source>No bottleneck: this rank has no dataset operator file (minddata_pipeline_raw or pipeline_profiling).</source>
        <translation>无瓶颈：该 rank 没有数据集算子文件（minddata_pipeline_raw 或 pipeline_profiling）。</translation>
    </message>
    <message>
        <source>Device queue empty in %1 of %2 samples (%3 %), full in %4</source>
        <translation>设备队列在 %2 次采样中 %1 次为空（%3 %），%4 次为满</translation>
    </message>
    <message>
        <source>No device queue file</source>
        <translation>无设备队列文件</translation>
    </message>
    <message>
        <source>process CPU %1 %</source>
        <translation>进程 CPU %1 %</translation>
    </message>
    <message>
        <source>host CPU user %1 %, sys %2 %</source>
        <translation>主机 CPU 用户态 %1 %，内核态 %2 %</translation>
    </message>
    <message>
        <source>Data pipeline</source>
        <translation>数据管道</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>No MindSpore data pipeline files were loaded.</source>
        <translation>未加载 MindSpore 数据管道文件。</translation>
    </message>
    <message>
        <source>No MindSpore data pipeline files (minddata_pipeline_raw, pipeline_profiling, minddata_cpu_utilization, device_queue_profiling) were loaded.</source>
        <translation>未加载 MindSpore 数据管道文件（minddata_pipeline_raw、pipeline_profiling、minddata_cpu_utilization、device_queue_profiling）。</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::PipelineOpTableModel</name>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>op_id (0 feeds the device queue)</source>
        <translation>op_id（0 号算子向设备队列供数）</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>op_type</source>
        <translation>op_type</translation>
    </message>
    <message>
        <source>Feeds</source>
        <translation>下游</translation>
    </message>
    <message>
        <source>The operator this one feeds (parent_id); empty for the root, which feeds the device queue</source>
        <translation>该算子供数的算子（parent_id）；根算子为空，它向设备队列供数</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作线程</translation>
    </message>
    <message>
        <source>num_workers: threads of the operator</source>
        <translation>num_workers：算子的线程数</translation>
    </message>
    <message>
        <source>Queue used [%]</source>
        <translation>队列使用率 [%]</translation>
    </message>
    <message>
        <source>Output queue usage: output_queue_usage_rate, else mean queue size ÷ capacity</source>
        <translation>输出队列使用率：output_queue_usage_rate，否则为平均队列长度 ÷ 容量</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Output queue capacity in rows (output_queue_length)</source>
        <translation>输出队列容量（行，output_queue_length）</translation>
    </message>
    <message>
        <source>Mean size</source>
        <translation>平均长度</translation>
    </message>
    <message>
        <source>Mean rows in the output queue (output_queue_average_size)</source>
        <translation>输出队列中的平均行数（output_queue_average_size）</translation>
    </message>
    <message>
        <source>Empty [%]</source>
        <translation>为空 [%]</translation>
    </message>
    <message>
        <source>Samples with an empty output queue ÷ samples</source>
        <translation>输出队列为空的采样数 ÷ 采样数</translation>
    </message>
    <message>
        <source>CPU [%]</source>
        <translation>CPU [%]</translation>
    </message>
    <message>
        <source>Mean user + sys CPU use of the operator&apos;s threads (minddata_cpu_utilization op_info)</source>
        <translation>算子线程的平均用户态 + 内核态 CPU 占用（minddata_cpu_utilization op_info）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>window %1</source>
        <translation>窗口 %1</translation>
    </message>
    <message>
        <source>The report could not be computed: %1</source>
        <translation>无法生成报告：%1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Rank %1 has no memory records. They come from memory_record.csv, operator_memory.csv and npu_module_mem.csv in ASCEND_PROFILER_OUTPUT (or the MEMORY_RECORD, OP_MEMORY and NPU_MODULE_MEM tables of a db export), which torch_npu writes when the profiler runs with profile_memory=True (MindSpore: profile_memory=True as well).</source>
        <translation>卡 %1 没有内存记录。内存记录来自 ASCEND_PROFILER_OUTPUT 中的 memory_record.csv、operator_memory.csv 和 npu_module_mem.csv（或 db 导出中的 MEMORY_RECORD、OP_MEMORY 和 NPU_MODULE_MEM 表），torch_npu 在以 profile_memory=True 采集时写出这些文件（MindSpore 同样需要 profile_memory=True）。</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>Counters</source>
        <translation>计数器</translation>
    </message>
    <message>
        <source>  · loading timeline…</source>
        <translation>  · 正在加载时间线…</translation>
    </message>
    <message>
        <source>  · ⚠ timeline not loaded: %1</source>
        <translation>  · ⚠ 时间线未加载：%1</translation>
    </message>
    <message>
        <source>  · no trace_view.json</source>
        <translation>  · 无 trace_view.json</translation>
    </message>
    <message>
        <source>  · click to load the timeline</source>
        <translation>  · 单击加载时间线</translation>
    </message>
    <message>
        <source>  · %1 slices</source>
        <translation>  · %1 个切片</translation>
    </message>
    <message>
        <source>  · offset %1%2</source>
        <translation>  · 偏移 %1%2</translation>
    </message>
    <message>
        <source>  · pinned</source>
        <translation>  · 已置顶</translation>
    </message>
    <message>
        <source>  · 1 row</source>
        <translation>  · 1 行</translation>
    </message>
    <message>
        <source>  · %1 rows</source>
        <translation>  · %1 行</translation>
    </message>
    <message>
        <source>  · rank %1 · pinned</source>
        <translation>  · 卡 %1 · 已置顶</translation>
    </message>
    <message>
        <source>%1 Counters  · %2 processes, %3 series</source>
        <translation>%1 计数器  · %2 个进程，%3 个序列</translation>
    </message>
    <message>
        <source>▸ +%1 levels (%2 deep)</source>
        <translation>▸ +%1 层（共 %2 层）</translation>
    </message>
    <message>
        <source>▾ show %1 levels</source>
        <translation>▾ 显示 %1 层</translation>
    </message>
    <message>
        <source>No profiling data found in %1</source>
        <translation>在 %1 中未找到性能数据</translation>
    </message>
    <message>
        <source>Loading the baseline was cancelled</source>
        <translation>已取消加载基线</translation>
    </message>
    <message>
        <source>No ranks could be loaded from the baseline</source>
        <translation>无法从基线加载任何卡</translation>
    </message>
    <message>
        <source>The baseline could not be loaded: %1</source>
        <translation>无法加载基线：%1</translation>
    </message>
    <message>
        <source>No rank has a timeline file (trace_view.json, a MindSpore timeline, a .db export&apos;s timeline or a CANN timeline); the cluster views have the figures</source>
        <translation>没有任何卡有时间线文件（trace_view.json、MindSpore 时间线、.db 导出的时间线或 CANN 时间线）；数据见集群视图</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) without a timeline file (%1): their folders hold the summary files only</source>
        <translation>
            <numerusform>%n 张卡没有时间线文件（%1）：其文件夹只有汇总文件</numerusform>
        </translation>
    </message>
    <message>
        <source>  · ⚠ file cut off: the timeline stops at the red line</source>
        <translation>  · ⚠ 文件被截断：时间线在红线处终止</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::QueryDock</name>
    <message>
        <source>⚠ %1 (listed in Parse issues)</source>
        <translation>⚠ %1（已列入解析问题）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::RankBarChart</name>
    <message>
        <source>No per-rank step data</source>
        <translation>无各卡迭代数据</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::RankDeltaStrip</name>
    <message>
        <source>rank %1 · %2: base %3 ms, new %4 ms</source>
        <translation>卡 %1 · %2：基线 %3 ms，新 %4 ms</translation>
    </message>
    <message>
        <source>, Δ %1 ms</source>
        <translation>，Δ %1 ms</translation>
    </message>
    <message>
        <source>
(the largest |Δ| of the ranks in this pixel column)</source>
        <translation>
（该像素列中各卡的最大 |Δ|）</translation>
    </message>
    <message>
        <source>
click: select the rank</source>
        <translation>
单击：选择该卡</translation>
    </message>
    <message>
        <source>No matched ranks</source>
        <translation>没有匹配的卡</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>rank %1 %2 ms</source>
        <translation>卡 %1 %2 ms</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>卡 %1</translation>
    </message>
    <message>
        <source>rank %1 · %2 ranks%3</source>
        <translation>卡 %1 · %2 张卡%3</translation>
    </message>
    <message>
        <source>, %1 per pixel column</source>
        <translation>，每像素列 %1</translation>
    </message>
</context>
<context>
    <name>RankMetric</name>
    <message>
        <source>Step time</source>
        <translation>迭代时间</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Wait ratio</source>
        <translation>等待比</translation>
    </message>
    <message>
        <source>Peak memory ÷ capacity</source>
        <translation>峰值内存 ÷ 容量</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>The unit of the Cluster steps tables (other views choose their unit per figure)</source>
        <translation>集群迭代表格的时间单位（其他视图按数值自行选择单位）</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>A new language applies when npuscope is started again.</source>
        <translation>更改语言后需重新启动 npuscope 才生效。</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>Time unit:</source>
        <translation>时间单位：</translation>
    </message>
    <message>
        <source>Font size:</source>
        <translation>字体大小：</translation>
    </message>
    <message>
        <source>Cluster steps colours a cell by its deviation from the column&apos;s median over ranks: within this band it stays neutral, beyond it turns warm (above) or cool (below), full at %1</source>
        <translation>集群迭代表按单元格与该列各卡中位数的偏差着色：在此范围内为中性，超出后变为暖色（高于）或冷色（低于），%1 时颜色最深</translation>
    </message>
    <message>
        <source>Colour neutral band:</source>
        <translation>颜色中性范围：</translation>
    </message>
</context>
<context>
    <name>SplitParts</name>
    <message>
        <source>Computing (not overlapped)</source>
        <translation>计算（未被掩盖）</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>计算与通信重叠</translation>
    </message>
    <message>
        <source>Communication (not overlapped)</source>
        <translation>通信（未被掩盖）</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Iteration interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>FP+BP</source>
        <translation>前反向(FP+BP)</translation>
    </message>
    <message>
        <source>Tail</source>
        <translation>迭代拖尾</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StageTableModel</name>
    <message>
        <source>msprof-analyze pipeline stage row: each value is the maximum over the stage&apos;s ranks</source>
        <translation>msprof-analyze 流水线阶段行：每个值为该阶段各卡的最大值</translation>
    </message>
    <message>
        <source>Stage #</source>
        <translation>阶段 #</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StatisticsDock</name>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Filter by op type, API, level…</source>
        <translation>按算子类型、API、级别过滤…</translation>
    </message>
    <message>
        <source>Op types (device)</source>
        <translation>算子类型（设备）</translation>
    </message>
    <message>
        <source>APIs (host)</source>
        <translation>API（主机）</translation>
    </message>
    <message>
        <source>No op_statistic.csv was loaded.</source>
        <translation>未加载 op_statistic.csv。</translation>
    </message>
    <message>
        <source>No api_statistic.csv was loaded.</source>
        <translation>未加载 api_statistic.csv。</translation>
    </message>
    <message>
        <source>No statistics files loaded</source>
        <translation>未加载统计文件</translation>
    </message>
    <message>
        <source>Summed over every rank (%1 with op_statistic, %2 with api_statistic); select ranks to narrow</source>
        <translation>所有 rank 之和（%1 个有 op_statistic，%2 个有 api_statistic）；选择 rank 以缩小范围</translation>
    </message>
    <message>
        <source>Summed over the selected ranks: %1</source>
        <translation>所选 rank 之和：%1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StepSplitPie</name>
    <message>
        <source>No step time recorded</source>
        <translation>未记录迭代时间</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>not in this generation</source>
        <translation>此版本数据中没有</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>迭代时间</translation>
    </message>
    <message>
        <source>Iteration total</source>
        <translation>迭代总计</translation>
    </message>
    <message>
        <source>Step wall time</source>
        <translation>迭代墙钟时间</translation>
    </message>
    <message>
        <source>computation (cluster_analyse)</source>
        <translation>计算（cluster_analyse）</translation>
    </message>
    <message>
        <source>comm. alone (cluster_analyse)</source>
        <translation>纯通信（cluster_analyse）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StepStatsModel</name>
    <message>
        <source>min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <source>(max − min) / mean over ranks</source>
        <translation>各卡的（最大 − 最小）/ 均值</translation>
    </message>
    <message>
        <source>Minimum %1 on rank %2</source>
        <translation>%1 最小值，在卡 %2</translation>
    </message>
    <message>
        <source>Maximum %1 on rank %2</source>
        <translation>%1 最大值，在卡 %2</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>The middle value over ranks: the reference of the table&apos;s colours</source>
        <translation>各卡的中间值：表格颜色的参照</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StepTableModel</name>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped)</source>
        <translation>通信(未被掩盖)</translation>
    </message>
    <message>
        <source>Overlapped</source>
        <translation>计算通信重叠</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Bubble</source>
        <translation>空泡</translation>
    </message>
    <message>
        <source>Communication(Not Overlapped and Exclude Receive)</source>
        <translation>通信(未被掩盖且不含接收)</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Iteration interval</source>
        <translation>迭代间隙</translation>
    </message>
    <message>
        <source>FP+BP</source>
        <translation>前反向(FP+BP)</translation>
    </message>
    <message>
        <source>Tail</source>
        <translation>迭代拖尾</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>comm. not overlapped</source>
        <translation>未被掩盖的通信</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Rank: the global rank id (from the profile&apos;s metadata or its folder name)</source>
        <translation>Rank：全局卡号（来自性能数据的元数据或其文件夹名）</translation>
    </message>
    <message>
        <source>Device: the NPU device id on its host (the rank&apos;s local card)</source>
        <translation>Device：所在主机上的 NPU 设备编号（该卡的本地编号）</translation>
    </message>
    <message>
        <source>Rank %1 · %2</source>
        <translation>卡 %1 · %2</translation>
    </message>
    <message>
        <source>Host by its host_ips_mapping.txt id (View ▸ Show host IPs for the real IP)</source>
        <translation>主机，按其在 host_ips_mapping.txt 中的编号（视图 ▸ 显示主机 IP 可查看真实 IP）</translation>
    </message>
    <message>
        <source>total: previous iteration end → this iteration end (old MindSpore step trace)</source>
        <translation>total：上一迭代结束 → 本迭代结束（旧版 MindSpore step trace）</translation>
    </message>
    <message>
        <source>iteration_interval: previous iteration end → forward start (data loading, host work)</source>
        <translation>iteration_interval：上一迭代结束 → 前向开始（数据加载、Host 侧工作）</translation>
    </message>
    <message>
        <source>fp_and_bp: forward start → backward end</source>
        <translation>fp_and_bp：前向开始 → 反向结束</translation>
    </message>
    <message>
        <source>tail: backward end → iteration end (gradient all-reduce, optimizer)</source>
        <translation>tail：反向结束 → 迭代结束（梯度 all-reduce、优化器）</translation>
    </message>
    <message>
        <source>mean of %1 steps</source>
        <translation>%1 个迭代的均值</translation>
    </message>
    <message>
        <source>Step wall time</source>
        <translation>迭代墙钟时间</translation>
    </message>
    <message>
        <source>%1%2 % vs the median of the ranks</source>
        <translation>相对各卡中位数 %1%2 %</translation>
    </message>
    <message>
        <source>Step wall
time</source>
        <translation>迭代墙钟
时间</translation>
    </message>
    <message>
        <source>From the step&apos;s start on the host (ProfilerStep#N) to the end of its last device task; Stage is shorter by Preparing and Bubble. &quot;Slowest rank&quot; is the rank with the largest step wall time: sorted by this column, slowest first, it is the top row.</source>
        <translation>从该迭代在 Host 上开始（ProfilerStep#N）到其最后一个 Device 任务结束；Stage 比它少 Preparing 和 Bubble。“最慢卡”是迭代墙钟时间最大的卡：按此列从慢到快排序时，它在第一行。</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StrategyChart</name>
    <message>
        <source> (not loaded)</source>
        <translation>（未加载）</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 point-to-point link(s)</source>
        <translation>&lt;br&gt;%1 条点对点链路</translation>
    </message>
    <message>
        <source>no rank has this figure</source>
        <translation>没有卡有该数值</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>无数值</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>outside range</source>
        <translation>超出范围</translation>
    </message>
    <message>
        <source>point-to-point link</source>
        <translation>点对点链路</translation>
    </message>
    <message>
        <source>No ranks loaded</source>
        <translation>未加载任何卡</translation>
    </message>
    <message>
        <source>Stage %1 · %2 ranks</source>
        <translation>阶段 %1 · %2 张卡</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <source>median %1, %2 neutral</source>
        <translation>中位数 %1，%2 以内为中性</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StrategyGraphCanvas</name>
    <message>
        <source>No parallel strategy graph: the job has no parallel_strategy_{rank}.json files (MindSpore auto or semi-auto parallel writes them).</source>
        <translation>没有并行策略图：作业中没有 parallel_strategy_{rank}.json 文件（由 MindSpore 自动或半自动并行写出）。</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Stage %1</translation>
    </message>
    <message>
        <source>Stage %1 · execution order %2</source>
        <translation>Stage %1 · 执行序 %2</translation>
    </message>
    <message>
        <source>Strategy: %1</source>
        <translation>策略：%1</translation>
    </message>
    <message>
        <source>Redistribution operator</source>
        <translation>重排布算子</translation>
    </message>
    <message>
        <source>Gradient aggregation operator</source>
        <translation>梯度聚合算子</translation>
    </message>
    <message>
        <source> · graph of rank %1</source>
        <translation> · rank %1 的图</translation>
    </message>
    <message numerus="yes">
        <source> · %n operator</source>
        <translation>
            <numerusform> · %n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n operators</source>
        <translation>
            <numerusform> · %n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source> · no graph loaded (no rank of this stage has a readable parallel_strategy file)</source>
        <translation> · 未加载图（此 stage 没有任何 rank 的 parallel_strategy 文件可读）</translation>
    </message>
    <message numerus="yes">
        <source>%n operator collapsed</source>
        <translation>
            <numerusform>已折叠 %n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operators collapsed</source>
        <translation>
            <numerusform>已折叠 %n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage %1 · execution order %2–%3</source>
        <translation>Stage %1 · 执行序 %2–%3</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::StrategyGraphDock</name>
    <message>
        <source>Strategy graph</source>
        <translation>策略图</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适配</translation>
    </message>
    <message>
        <source>The whole pipeline in view (F)</source>
        <translation>显示整个流水线 (F)</translation>
    </message>
    <message>
        <source>MatMul / Conv (cube)</source>
        <translation>MatMul / Conv（cube）</translation>
    </message>
    <message>
        <source>vector</source>
        <translation>vector</translation>
    </message>
    <message>
        <source>collective communication</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Send / Receive</source>
        <translation>Send / Receive</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>dot: sharded by a strategy</source>
        <translation>圆点：按策略切分</translation>
    </message>
    <message>
        <source>red outline: redistribution</source>
        <translation>红框：重排布</translation>
    </message>
    <message>
        <source>purple outline: gradient aggregation</source>
        <translation>紫框：梯度聚合</translation>
    </message>
    <message>
        <source>dashed curve: Send→Receive between stages</source>
        <translation>虚线：stage 之间的 Send→Receive</translation>
    </message>
    <message>
        <source>yellow: in a checked scope</source>
        <translation>黄色：属于已勾选的 scope</translation>
    </message>
    <message>
        <source>Name scope (operators)</source>
        <translation>名称 scope（算子数）</translation>
    </message>
    <message>
        <source>Special operators</source>
        <translation>特殊算子</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Click an operator to see its fields.</source>
        <translation>单击算子查看其字段。</translation>
    </message>
    <message>
        <source>No parallel strategy graph loaded.</source>
        <translation>未加载并行策略图。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>(no scope)</source>
        <translation>（无 scope）</translation>
    </message>
    <message>
        <source>Stage %1 (%2 + %3 + %4)</source>
        <translation>Stage %1 (%2 + %3 + %4)</translation>
    </message>
    <message>
        <source>With a strategy (%1)</source>
        <translation>带策略 (%1)</translation>
    </message>
    <message>
        <source>Redistribution (%1)</source>
        <translation>重排布 (%1)</translation>
    </message>
    <message>
        <source>Gradient aggregation (%1)</source>
        <translation>梯度聚合 (%1)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>Execution order</source>
        <translation>执行序</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <source>Output type</source>
        <translation>输出类型</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>通信域</translation>
    </message>
    <message>
        <source>sr_tag / peer rank</source>
        <translation>sr_tag / 对端 rank</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message numerus="yes">
        <source>%n stage</source>
        <translation>
            <numerusform>%n 个 stage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n stages</source>
        <translation>
            <numerusform>%n 个 stage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operator</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n operators</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edge</source>
        <translation>
            <numerusform>%n 条边</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edges</source>
        <translation>
            <numerusform>%n 条边</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Send→Receive pair</source>
        <translation>
            <numerusform>%n 对 Send→Receive</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Send→Receive pairs</source>
        <translation>
            <numerusform>%n 对 Send→Receive</numerusform>
        </translation>
    </message>
    <message>
        <source>special: %1 with a strategy, %2 redistribution, %3 gradient aggregation</source>
        <translation>特殊算子：%1 个带策略，%2 个重排布，%3 个梯度聚合</translation>
    </message>
    <message>
        <source>Check a scope to put a halo on its operators; right-click it to collapse it into one node</source>
        <translation>勾选作用域以高亮其算子；右键单击可将其折叠为一个节点</translation>
    </message>
    <message>
        <source>Expand into its operators</source>
        <translation>展开为各个算子</translation>
    </message>
    <message>
        <source>Collapse into one node</source>
        <translation>折叠为一个节点</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TableSetup</name>
    <message>
        <source>Copy rows</source>
        <translation>复制行</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export table as CSV</source>
        <translation>将表格导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected rows (Ctrl+C), tab-separated</source>
        <translation>复制所选行（Ctrl+C），以制表符分隔</translation>
    </message>
    <message>
        <source>Save every row as a CSV file</source>
        <translation>将所有行保存为 CSV 文件</translation>
    </message>
    <message numerus="yes">
        <source>%n row</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TimeOverviewChart</name>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt; (%2 ranks)&lt;table&gt;</source>
        <translation>&lt;b&gt;迭代 %1&lt;/b&gt;（%2 张卡）&lt;table&gt;</translation>
    </message>
    <message>
        <source>Step time max (rank %1)</source>
        <translation>迭代时间最大值（卡 %1）</translation>
    </message>
    <message>
        <source>Step time median</source>
        <translation>迭代时间中位数</translation>
    </message>
    <message>
        <source>Step time min (rank %1)</source>
        <translation>迭代时间最小值（卡 %1）</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>迭代时间</translation>
    </message>
    <message>
        <source>no step trace row for this step</source>
        <translation>该迭代无 step trace 记录</translation>
    </message>
    <message>
        <source>Slowest rank %1</source>
        <translation>最慢卡 %1</translation>
    </message>
    <message>
        <source>Mean communication</source>
        <translation>平均通信</translation>
    </message>
    <message>
        <source>Mean wait</source>
        <translation>平均等待</translation>
    </message>
    <message>
        <source>No steps</source>
        <translation>无迭代</translation>
    </message>
    <message>
        <source>comm / wait</source>
        <translation>通信 / 等待</translation>
    </message>
    <message>
        <source>comm</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>slowest rank %1</source>
        <translation>最慢卡 %1</translation>
    </message>
    <message>
        <source>slowest rank</source>
        <translation>最慢卡</translation>
    </message>
    <message>
        <source>min–max over ranks</source>
        <translation>各卡最小–最大</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>mean communication (right)</source>
        <translation>平均通信（右轴）</translation>
    </message>
    <message>
        <source>mean wait (right)</source>
        <translation>平均等待（右轴）</translation>
    </message>
    <message>
        <source>&lt;/table&gt;Step time = step wall time: Computing + Communication(Not Overlapped) + Free + Preparing (not Stage)&lt;br&gt;&lt;i&gt;click: select this step&lt;/i&gt;</source>
        <translation>&lt;/table&gt;迭代时间 = 迭代墙钟时间：Computing + Communication(Not Overlapped) + Free + Preparing（不是 Stage）&lt;br&gt;&lt;i&gt;单击：选中该迭代&lt;/i&gt;</translation>
    </message>
    <message>
        <source>step wall time</source>
        <translation>迭代墙钟时间</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TimeOverviewDock</name>
    <message>
        <source>Time overview</source>
        <translation>时间概览</translation>
    </message>
    <message>
        <source>1 step</source>
        <translation>1 个迭代</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 个迭代</translation>
    </message>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Axes from 0</source>
        <translation>坐标轴从 0 开始</translation>
    </message>
    <message>
        <source>Start both axes at 0; unchecked, each axis spans its own figures (the labels say where)</source>
        <translation>两条坐标轴都从 0 开始；不勾选时，每条坐标轴只覆盖自身数据的范围（以刻度标签为准）</translation>
    </message>
    <message>
        <source> · step wall time per rank · click a step to select it (again: all steps) · hover for values</source>
        <translation> · 各卡的迭代墙钟时间 · 单击选中迭代（再次单击：所有迭代）· 悬停查看数值</translation>
    </message>
    <message>
        <source>Step wall time: %1, from ProfilerStep#N&apos;s start on the host to the end of the step&apos;s last device task (Stage is shorter by Preparing and Bubble)</source>
        <translation>迭代墙钟时间：%1，从 Host 上 ProfilerStep#N 开始到该迭代最后一个 Device 任务结束（Stage 比它少 Preparing 和 Bubble）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TimelineDock</name>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Search slice names (Enter: next)</source>
        <translation>搜索切片名称（回车：下一个）</translation>
    </message>
    <message>
        <source>Aa</source>
        <translation>Aa</translation>
    </message>
    <message>
        <source>Case sensitive</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <source>✕ operator</source>
        <translation>✕ 算子</translation>
    </message>
    <message>
        <source>Stop highlighting the operator picked in the Operators view</source>
        <translation>停止高亮在算子视图中选中的算子</translation>
    </message>
    <message>
        <source>All flows</source>
        <translation>所有连线</translation>
    </message>
    <message>
        <source>All flows (%1)</source>
        <translation>所有连线（%1）</translation>
    </message>
    <message>
        <source>Flow categories drawn for every slice (otherwise only the selected slice&apos;s flows)</source>
        <translation>为每个切片绘制连线的类别（否则只绘制所选切片的连线）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适配</translation>
    </message>
    <message>
        <source>Show everything (0); W/S zoom, A/D pan, Shift+drag selects a range, F fits it, Backspace undoes</source>
        <translation>显示全部 (0)；W/S 缩放，A/D 平移，Shift+拖动选择范围，F 适配范围，Backspace 撤销</translation>
    </message>
    <message>
        <source>Filter rows by name</source>
        <translation>按名称筛选行</translation>
    </message>
    <message>
        <source>Nesting levels a thread row shows; click a row&apos;s “+k levels” to see all</source>
        <translation>线程行显示的嵌套层数；单击行的“+k 层”查看全部</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Align ranks on the start of step…</source>
        <translation>按迭代开始对齐各卡…</translation>
    </message>
    <message>
        <source>Reset time offsets</source>
        <translation>重置时间偏移</translation>
    </message>
    <message>
        <source>Expand all ranks</source>
        <translation>展开所有卡</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>Levels</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>Right-click a row name to pin, hide or move it; M adds a marker</source>
        <translation>右键单击行名可置顶、隐藏或移动；M 添加标记</translation>
    </message>
    <message>
        <source>Click a slice to see its args, parent chain and flows.</source>
        <translation>单击切片查看其参数、父调用链和连线。</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Shift+drag over the timeline to select a time range and rows.</source>
        <translation>在时间线上 Shift+拖动以选择时间范围和行。</translation>
    </message>
    <message>
        <source>Area statistics</source>
        <translation>区域统计</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>卡</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <source>Add at cursor (M)</source>
        <translation>在光标处添加（M）</translation>
    </message>
    <message>
        <source>Add from selected range</source>
        <translation>根据所选范围添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Markers</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Export statistics</source>
        <translation>导出统计</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>the timeline has no events</source>
        <translation>时间线中没有事件</translation>
    </message>
    <message>
        <source>rank %1: timeline not loaded: %2</source>
        <translation>卡 %1：时间线未加载：%2</translation>
    </message>
    <message>
        <source>⚠ the loaded data spans %1 days (different runs, or clocks that disagree): zoom in or align ranks on a step</source>
        <translation>⚠ 加载的数据跨越 %1 天（来自不同的运行，或时钟不一致）：请放大，或按迭代对齐各卡</translation>
    </message>
    <message>
        <source>Set time offset…</source>
        <translation>设置时间偏移…</translation>
    </message>
    <message>
        <source>Time offset</source>
        <translation>时间偏移</translation>
    </message>
    <message>
        <source>Offset of rank %1 in ns (added to its times):</source>
        <translation>卡 %1 的偏移（ns，加到其时间上）：</translation>
    </message>
    <message>
        <source>Align ranks</source>
        <translation>对齐各卡</translation>
    </message>
    <message>
        <source>Align every rank on the start of step:</source>
        <translation>将所有卡对齐到以下迭代的开始：</translation>
    </message>
    <message>
        <source>Rank offset</source>
        <translation>卡时间偏移</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Slice id</source>
        <translation>切片 ID</translation>
    </message>
    <message>
        <source>Parent chain</source>
        <translation>父调用链</translation>
    </message>
    <message>
        <source>(top level)</source>
        <translation>（顶层）</translation>
    </message>
    <message>
        <source>Flows</source>
        <translation>连线</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>unbound</source>
        <translation>未绑定</translation>
    </message>
    <message>
        <source>Args</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>(not in the model)</source>
        <translation>（不在模型中）</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>%1 – %2 (%3) over %4 rows: %5 names</source>
        <translation>%1 – %2（%3），%4 行：%5 个名称</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1: %2 occurrences (%3 kernels)</source>
        <translation>%1：%2 次出现（%3 个核函数）</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1：%2 / %3</translation>
    </message>
    <message>
        <source>Align ranks on the selected collective</source>
        <translation>按所选集合通信对齐各卡</translation>
    </message>
    <message>
        <source>Export raw CSV (ns)…</source>
        <translation>导出原始 CSV (ns)…</translation>
    </message>
    <message>
        <source>Rank: the rank whose timeline holds the match</source>
        <translation>Rank：匹配项所在时间线的卡</translation>
    </message>
    <message>
        <source>Row: the timeline row (thread, stream or counter) of the match</source>
        <translation>Row：匹配项所在的时间线行（线程、流或计数器）</translation>
    </message>
    <message>
        <source>Name: the slice&apos;s name</source>
        <translation>Name：切片名称</translation>
    </message>
    <message>
        <source>Start: the slice&apos;s start on the common time axis</source>
        <translation>Start：切片在公共时间轴上的开始时间</translation>
    </message>
    <message>
        <source>Duration: the slice&apos;s wall time</source>
        <translation>Duration：切片的墙钟时间</translation>
    </message>
    <message>
        <source>Expanding all %1 ranks would need about %2 of memory, %3 is available: the timelines of the first %4 are loaded; expand others one by one</source>
        <translation>展开全部 %1 张卡约需 %2 内存，当前可用 %3：已加载前 %4 张卡的时间线；其余请逐个展开</translation>
    </message>
    <message>
        <source>Loading timelines</source>
        <translation>正在加载时间线</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TimelineMarkerModel</name>
    <message>
        <source>Marker</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Marker name (editable)</source>
        <translation>标记名称（可编辑）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start of the marker, from the start of the loaded data</source>
        <translation>标记的开始时间，从加载数据的起点算起</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>End − start of a range marker; point for a point marker</source>
        <translation>范围标记的结束 − 开始；点标记为“点”</translation>
    </message>
    <message>
        <source>point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Range %1</source>
        <translation>范围 %1</translation>
    </message>
    <message>
        <source>Marker %1</source>
        <translation>标记 %1</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::TimelineView</name>
    <message>
        <source>No profile loaded</source>
        <translation>未加载性能数据</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <source>Pin to top</source>
        <translation>置顶</translation>
    </message>
    <message>
        <source>Hide row</source>
        <translation>隐藏行</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Show all %1 levels</source>
        <translation>显示全部 %1 层</translation>
    </message>
    <message>
        <source>Collapse to %1 levels</source>
        <translation>折叠到 %1 层</translation>
    </message>
    <message>
        <source>Show %1 hidden rows</source>
        <translation>显示 %1 个隐藏行</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 slices&lt;/b&gt; folded (each narrower than 2 px)&lt;br&gt;%2 – %3&lt;br&gt;click to zoom in</source>
        <translation>&lt;b&gt;%1 个切片&lt;/b&gt;已折叠（每个窄于 2 像素）&lt;br&gt;%2 – %3&lt;br&gt;单击放大</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;start +%2&lt;br&gt;duration %3&lt;br&gt;rank %4 · %5 · depth %6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;开始 +%2&lt;br&gt;时长 %3&lt;br&gt;卡 %4 · %5 · 深度 %6</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::WaterfallChart</name>
    <message>
        <source>base step</source>
        <translation>基线迭代</translation>
    </message>
    <message>
        <source>comm. not overlapped</source>
        <translation>未被掩盖的通信</translation>
    </message>
    <message>
        <source>of which bubble</source>
        <translation>其中气泡</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>new step</source>
        <translation>新迭代</translation>
    </message>
    <message>
        <source>%1: %2 ms (cluster mean over the matched ranks)</source>
        <translation>%1：%2 ms（匹配卡的集群均值）</translation>
    </message>
    <message>
        <source>bubble Δ %1 ms, inside communication not overlapped (does not add to the step)</source>
        <translation>气泡 Δ %1 ms，包含在未被掩盖的通信中（不额外计入迭代）</translation>
    </message>
    <message>
        <source>%1 Δ %2 ms (running total %3 → %4 ms)</source>
        <translation>%1 Δ %2 ms（累计 %3 → %4 ms）</translation>
    </message>
    <message>
        <source>No matched ranks with step figures</source>
        <translation>没有带迭代数据的匹配卡</translation>
    </message>
    <message>
        <source>ms per step</source>
        <translation>每迭代 ms</translation>
    </message>
    <message>
        <source>ms per step · axis from %1 ms (the changes are small against the step)</source>
        <translation>每迭代 ms · 坐标轴从 %1 ms 开始（变化相对迭代时间很小）</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::WelcomePage</name>
    <message>
        <source>&lt;h1&gt;npuscope&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;npuscope&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>npuscope shows where the time of an Ascend NPU training job goes: the step time of every rank split into computing, communication and idle time, the communication between ranks, memory, operators and a timeline of every device, for one rank or thousands. Open the folder the profiler (torch_npu, MindSpore, msprof) wrote.</source>
        <translation>npuscope 展示昇腾 NPU 训练任务的时间花在哪里：每张卡的迭代时间拆分为计算、通信与空闲时间，以及卡间通信、内存、算子和每个设备的时间线，适用于单卡到数千卡。请打开性能采集工具（torch_npu、MindSpore、msprof）输出的文件夹。</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>A profiler output folder, or a folder of them</source>
        <translation>性能数据输出文件夹，或包含多个此类文件夹的目录</translation>
    </message>
    <message>
        <source>Open the demo</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <source>Two real ranks of an 8-rank torch_npu job</source>
        <translation>一个 8 卡 torch_npu 任务中的两张真实卡的数据</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open recent&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近打开&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Or drop folders on this window. &lt;a href=&quot;formats&quot;&gt;What can I open?&lt;/a&gt; · F1: shortcuts</source>
        <translation>也可将文件夹拖到本窗口。&lt;a href=&quot;formats&quot;&gt;可以打开哪些数据？&lt;/a&gt; · F1：快捷键</translation>
    </message>
    <message>
        <source> (+%1 more)</source>
        <translation>（另有 %1 个）</translation>
    </message>
</context>
<context>
    <name>WidgetImage</name>
    <message>
        <source>Cannot write the image to %1</source>
        <translation>无法将图片写入 %1</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>Save image</source>
        <translation>保存图片</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图片 (*.svg)</translation>
    </message>
</context>
<context>
    <name>npuscope::gui::Workspace</name>
    <message>
        <source>Communication indexes</source>
        <translation>通信索引</translation>
    </message>
    <message>
        <source>building them beside the views failed (%1); they are built on the model instead</source>
        <translation>在视图之外构建索引失败（%1）；改为在模型上构建</translation>
    </message>
</context>
</TS>
