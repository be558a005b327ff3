/** The tables of a kind of campaign that its targets live in: its table and its link tables. */
export interface CampaignTables {
  campaigns: 'training_campaigns' | 'phishing_campaigns';
  groups: 'campaign_groups' | 'phishing_campaign_groups';
  courses: 'campaign_courses' | 'phishing_campaign_courses';
}

/** A target group, as a campaign shows it. */
export interface GroupRef {
  id: number;
  name: string;
}
