#pragma once
// The replay's lanes, Jepsen/Knossos style and shaped like KDAB Hotspot's timeline
// delegate: time runs left to right through mapTimeToX/mapXToTime, one lane per
// scheduler instance and one each for the lock key, the output file and the finance
// outbox. Lock ownership is a bar, pauses, lapsed leases and crashes are shaded bands,
// commands and replies are markers with tooltips, and a "now" cursor marks the current
// beat. Nothing after the current beat is drawn: the story unfolds step by step.
// Right-click on an instance lane offers to pause or crash it there (a fork).

#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "lane_fonts.h"
#include "lockscope/sim/lane_state.h"
#include "lockscope/sim/replay.h"

namespace lockscope::ui {

class TimelineLanes : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineLanes(QWidget* parent = nullptr);

    // The replay to draw (owned by the panel); call refresh() whenever it changes.
    void setReplay(const sim::Replay* replay);
    void refresh();

    double mapTimeToX(sim::VirtualMs t) const;
    sim::VirtualMs mapXToTime(double x) const;
    sim::VirtualMs endTime() const { return end_; }
    // The horizontal margins of the time area, so the PTTL plot below can line up. The left
    // one is the header column: as wide as the widest lane name at the current font needs
    // (a 720p projector must not show "re…db"), headerWidthChanged() says when it moves.
    int leftMargin() const { return headerWidth_; }
    int rightMargin() const { return kRightMargin; }

    // Lane index under a point (-1: none), the event marker under it, and the tooltip.
    int laneAt(const QPoint& pos) const;
    const sim::TimelineEvent* eventAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const;
    // Where a lane's ownership and job bars are drawn (empty for a lane without bars).
    QRectF barRow(int lane) const;
    // Where the marker of an event is drawn (empty if hidden), for tests.
    QRectF markerRect(int eventIndex) const;
    bool eventVisible(const sim::TimelineEvent& event) const;
    int visibleMarkerCount() const { return static_cast<int>(markers_.size()); }
    // The label drawn on the marker of an event ("extend ×8"), empty for dots and hidden ones.
    QString markerText(int eventIndex) const;
    // What a lane's header says under its name ("holds the lock"), and in which colour.
    struct HeaderStatus {
        QString text;
        QColor color;
    };
    // A lane header's name as last painted, and the box it was given (for tests), and the
    // header's tooltip: the lane's full name, what it is and its state now.
    QString headerName(int lane) const;
    QRectF headerNameRect(int lane) const;
    QString headerToolTip(int lane) const;
    // A lane header's state as last painted: its whole text, and the box and font the painter
    // gave it (for tests: a state wider than its box would be drawn elided).
    struct DrawnState {
        QString text;
        QRectF rect;
        QFont font;
    };
    DrawnState headerState(int lane) const;
    // The labels last painted on or beside the bars: the text, its box, the room it was
    // given (its bar, or the free row beside it) and its font (for tests: a label is
    // drawn only where it fits; else the bar's tooltip has it).
    struct DrawnLabel {
        QString text;
        QRectF rect;
        QRectF space;
        QFont font;
    };
    const std::vector<DrawnLabel>& drawnLabels() const { return drawnLabels_; }
    // The labels last painted on the pause and crash bands ("frozen: GC pause"), and the
    // time axis's tick labels and the "now" flag (tests: none drawn over a marker or the flag).
    const std::vector<DrawnLabel>& drawnBandLabels() const { return drawnBandLabels_; }
    const std::vector<DrawnLabel>& drawnTicks() const { return drawnTicks_; }
    QRectF drawnFlag() const { return drawnFlag_; }
    // Every marker (pills and dots) as last painted.
    const std::vector<QRectF>& drawnMarkers() const { return drawnMarkers_; }
    // The pills as last laid out and painted (in the window, or on the slide being drawn),
    // with their lane: pills on one lane never overlap and keep kPillGap between them.
    struct DrawnPill {
        int lane = 0;
        QRectF rect;
        QString text;
    };
    const std::vector<DrawnPill>& drawnPills() const { return drawnPills_; }
    static constexpr double kPillGap = 4;

    // While the story plays, the cursor glides from one beat's time toward the next one's
    // (the panel animates it); the lanes still show the story at the current beat.
    void setCursorTime(std::optional<sim::VirtualMs> t);
    sim::VirtualMs cursorTime() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void timeClicked(sim::VirtualMs t);
    void pauseRequested(const QString& instance, sim::VirtualMs at, sim::VirtualMs duration);
    void crashRequested(const QString& instance, sim::VirtualMs at);
    void headerWidthChanged();

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

  private:
    // One marker on screen: an event, or a run of same-label pills that would overlap
    // ("extend ×8").
    struct Marker {
        QRectF rect;
        std::vector<int> events;
        double x = 0;  // the first event's exact time on screen (a pill may be nudged)
        QString base;  // the label without the count
        QString text;
        bool dot = false;
        int row = 0;
        int lane = 0;
    };
    static constexpr int kAxisHeight = 34;
    static constexpr int kMinHeaderWidth = 220;
    static constexpr int kRightMargin = 28;
    // The least lane height, with the fonts: 36 px in presenter mode (a 720p projector fits
    // eight lanes), 29 px at zoom 1, where a normal 720p window, under its menu, tool bar
    // and tabs, must still fit the Redlock stories' nine lanes above the narration.
    static int minLaneHeight() { return LaneFonts::px(29); }

    QRectF laneRect(int lane) const;  // the time area of a lane
    QRectF barArea(int lane) const;   // where ownership and job bars go
    bool hasBars(int lane) const;     // instance and key lanes; resource lanes only have markers
    int laneIndex(sim::LaneId id) const;
    sim::VirtualMs now() const;
    // The story at the current beat: every bar and header is painted from it.
    sim::StoryPoint point() const { return point_; }
    sim::VirtualMs visibleEnd(const sim::Interval& interval) const;
    void layoutMarkers();
    void separatePills();  // the last pass of layoutMarkers: no two pills of a row touch
    // The header column's width for the lanes' names at the current lane height and zoom
    // (timeline_lane_headers.cpp); fitHeaderWidth() applies it.
    int neededHeaderWidth() const;
    void fitHeaderWidth();
    // Every state text each lane's header shows at some beat of the story (the header
    // column is sized for the widest); refresh() keeps storyStates_.
    std::vector<QStringList> storyStates() const;

    // Painting (timeline_lanes_paint.cpp).
    void paintAxis(QPainter& p) const;
    void paintHeaders(QPainter& p) const;  // timeline_lane_headers.cpp
    void paintHeader(QPainter& p, int index) const;
    HeaderStatus headerStatus(int lane) const;  // what the lane is doing at the current beat
    void paintIntervals(QPainter& p) const;
    void paintBand(QPainter& p, const sim::Interval& interval, const QRectF& rect) const;
    void paintBandLabel(QPainter& p, const sim::Interval& interval, const QRectF& rect) const;
    void paintBar(QPainter& p, const sim::Interval& interval, const QRectF& rect) const;
    // A bar's label: inside it when it fits whole, else beside it in the free room of its
    // row, else not at all (the tooltip has it).
    void paintBarLabel(QPainter& p, const sim::Interval& interval, const QRectF& bar,
                       const QColor& onBar, const QColor& beside) const;
    // Where the room right of a bar ends: the next bar in its lane, or the time area's end.
    double freeRightOf(const sim::Interval& interval, const QRectF& bar) const;
    void paintMarkers(QPainter& p) const;
    void paintCursor(QPainter& p, bool label) const;
    QString cursorText() const;  // "now 12.505s", or "start" before the first beat
    QRectF cursorFlag() const;   // where the "now" flag goes at the current width
    bool coveredByMarker(const QRectF& rect) const;  // a pill or a dot is drawn over it

    const sim::Replay* replay_ = nullptr;
    sim::VirtualMs end_ = 1000;
    int nextNarrated_ = 0;  // the first event narrated after the current beat
    sim::StoryPoint point_;
    std::vector<sim::LaneState> states_;    // one per lane, at point_
    std::vector<QStringList> storyStates_;  // one per lane, over the whole story
    std::vector<Marker> markers_;
    std::optional<sim::VirtualMs> cursor_;  // the gliding cursor while playing
    int headerWidth_ = kMinHeaderWidth;
    struct DrawnName {
        QString text;
        QRectF rect;
    };
    mutable std::vector<DrawnName> drawnNames_;    // by paintHeader, one per lane
    mutable std::vector<DrawnState> drawnStates_;  // likewise
    mutable std::vector<DrawnLabel> drawnLabels_;  // by paintIntervals
    mutable std::vector<DrawnLabel> drawnBandLabels_;
    mutable std::vector<DrawnLabel> drawnTicks_;  // by paintAxis
    mutable QRectF drawnFlag_;
    mutable std::vector<QRectF> drawnMarkers_;   // by paintMarkers
    mutable std::vector<DrawnPill> drawnPills_;  // likewise
};

}  // namespace lockscope::ui
