#include "lockscope/inspect/scanner.h"

#include "batch_annotator.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/pacer.h"
#include "move_append.h"
#include "scan_pass.h"

namespace lockscope::inspect {

Scanner::Scanner(Connection& connection, ScanOptions options)
    : connection_(connection),
      options_(std::move(options)),
      instance_(std::make_shared<const std::string>(
          options_.instanceName.empty() || options_.clusterNode ? connection.endpoint().display()
                                                                : options_.instanceName)) {
    validate(options_);
    annotator_ = std::make_unique<BatchAnnotator>(options_, instance_);
}

Scanner::~Scanner() = default;

const std::vector<std::string>& Scanner::notes() const {
    return annotator_->notes();
}

ScanSummary Scanner::run(const BatchCallback& onBatch, std::stop_token stop) {
    ScanPass pass(connection_, options_, *annotator_, *instance_, [this] { dropPendingReplies(); });
    return pass.run(onBatch, stop);
}

void Scanner::dropPendingReplies() noexcept {
    try {
        connection_.reconnect();
    } catch (...) {
        // The connection stays without a socket and connects again on its next command.
    }
}

std::vector<LockRecord> Scanner::collect(ScanSummary* summary, std::stop_token stop) {
    std::vector<LockRecord> all;
    ScanSummary s = run([&](ScanBatch& b) { moveAppend(all, std::move(b.records)); }, stop);
    if (summary) *summary = std::move(s);
    return all;
}

std::vector<LockRecord> Scanner::readKeys(
    const std::vector<std::string>& keys, std::vector<std::string>* vanished,
    const std::vector<ValueType>* types,
    std::vector<std::pair<std::string, std::string>>* redirected) {
    auto keepRedirected = [&](BatchAnnotator::Output& out) {
        if (redirected)
            moveAppend(*redirected, std::move(out.redirected));
        else if (vanished)
            for (auto& [key, answer] : out.redirected) vanished->push_back(std::move(key));
    };
    annotator_->forgetRereads();
    std::vector<LockRecord> records;
    std::vector<std::string> main, follow, typed;
    std::vector<ValueType> typedAs;
    if (types && types->size() == keys.size()) {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if ((*types)[i] == ValueType::String) {
                main.push_back(keys[i]);
            } else {
                typed.push_back(keys[i]);
                typedAs.push_back((*types)[i]);
            }
        }
    } else {
        main.assign(keys.begin(), keys.end());
    }
    if (!typed.empty()) {  // bounded batches, like the main stage's
        BatchAnnotator::Output out;
        const auto step = static_cast<std::size_t>(options_.count);
        for (std::size_t from = 0; from < typed.size(); from += step) {
            const std::size_t to = std::min(typed.size(), from + step);
            auto first = static_cast<std::ptrdiff_t>(from), last = static_cast<std::ptrdiff_t>(to);
            BatchAnnotator::Sent sent = annotator_->sendFollowUp(
                connection_, std::vector<std::string>(typed.begin() + first, typed.begin() + last),
                std::vector<ValueType>(typedAs.begin() + first, typedAs.begin() + last));
            connection_.flush();
            try {
                annotator_->receive(connection_, sent, out);
            } catch (const IoError&) {
                throw;
            } catch (...) {
                dropPendingReplies();
                throw;
            }
        }
        moveAppend(records, std::move(out.records));
        if (vanished) moveAppend(*vanished, std::move(out.vanished));
        keepRedirected(out);
        moveAppend(main, std::move(out.retryMain));
        moveAppend(follow, std::move(out.followUps));
        moveAppend(follow, std::move(out.retryFollow));
    }
    for (int pass = 0; pass < 4 && !(main.empty() && follow.empty()); ++pass) {
        std::vector<BatchAnnotator::Sent> stages;
        // Bounded batches: one MGET never names more than COUNT keys.
        const auto step = static_cast<std::size_t>(options_.count);
        for (std::size_t from = 0; from < main.size(); from += step) {
            std::vector<std::string> part(
                main.begin() + static_cast<std::ptrdiff_t>(from),
                main.begin() + static_cast<std::ptrdiff_t>(std::min(main.size(), from + step)));
            stages.push_back(annotator_->sendMain(connection_, std::move(part)));
        }
        if (!follow.empty())
            stages.push_back(annotator_->sendFollowUp(connection_, std::move(follow)));
        main.clear();
        follow.clear();
        connection_.flush();
        BatchAnnotator::Output out;
        try {
            for (auto& stage : stages) annotator_->receive(connection_, stage, out);
        } catch (const IoError&) {
            throw;
        } catch (...) {
            dropPendingReplies();
            throw;
        }
        moveAppend(records, std::move(out.records));
        if (vanished) moveAppend(*vanished, std::move(out.vanished));
        keepRedirected(out);
        main = std::move(out.retryMain);
        moveAppend(follow, std::move(out.followUps));
        moveAppend(follow, std::move(out.retryFollow));
    }
    return records;
}

}  // namespace lockscope::inspect
