import { Grid } from 'antd';

/** Whether the screen is phone-sized (narrower than antd's md, 768 px): pages keep their key parts there. */
export const usePhone = () => Grid.useBreakpoint().md === false;
